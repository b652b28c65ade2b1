/** The page's stylesheet: esbuild emits it beside the bundle (dist/inspector/app.css). */
declare module '*.css';
