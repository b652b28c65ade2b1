/**
 * Entry of the inspector page (`/__mock/ui`), bundled by tsup into `dist/inspector/app.js` with Preact, so the
 * page works offline from the package alone.
 */
import { render } from 'preact';
import { App } from './app';
import './style.css';

render(<App />, document.getElementById('app')!);
