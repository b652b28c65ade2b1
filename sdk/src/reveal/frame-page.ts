/**
 * The reveal frame's page around its script: `frame.html` in the package, one file with its script and style
 * inline, so that it can be served as it is from any origin. Its own Content-Security-Policy (a meta element)
 * allows that script and that style by hash, and nothing else: no connection, no image, no form, no base. A
 * server adds what a meta element cannot carry (`frame-ancestors`, `sandbox`) in a header.
 * @module
 * @internal
 */

/** The frame's style: the look the page can change through CSS variables (`style` of mountCardReveal). */
export const FRAME_CSS = `:root{--color:#111;--background:transparent;--font:system-ui,sans-serif;--size:16px;--label:#666;--accent:#0b57d0;color-scheme:light}
*{box-sizing:border-box}
html,body{margin:0;background:var(--background);color:var(--color);font-family:var(--font)}
#card{padding:4px}
dl{margin:0;display:grid;gap:8px}
.row{display:grid;grid-template-columns:minmax(7em,auto) 1fr auto;align-items:center;gap:8px}
dt{color:var(--label);font-size:calc(var(--size) * .8)}
dd{margin:0;font-size:var(--size);font-variant-numeric:tabular-nums;letter-spacing:.02em}
button{font:inherit;font-size:calc(var(--size) * .75);color:var(--accent);background:none;border:1px solid currentColor;border-radius:4px;padding:2px 8px;cursor:pointer}
button:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.status{margin:0;color:var(--label);font-size:calc(var(--size) * .85)}`;

/** The page, given its script and the CSP hashes (`'sha256-…'`) of that script and of {@link FRAME_CSS}. */
export function frameHtml(script: string, hashes: { script: string; style: string }): string {
  const csp = [
    "default-src 'none'",
    `script-src ${hashes.script}`,
    `style-src ${hashes.style}`,
    "connect-src 'none'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Card details</title>
<style>${FRAME_CSS}</style>
</head>
<body>
<main id="card" aria-live="polite"></main>
<script>${script}</script>
</body>
</html>
`;
}
