/**
 * Where the inspector's reveal frame comes from: the same server under its other loopback name (127.0.0.1 ↔
 * localhost), so that the frame is on another origin than the page, as `mountCardReveal` requires. Both the page
 * (to mount it) and the server (to allow it in the page's `frame-src`) ask this.
 * @module
 */

/** The origin of the reveal frame for a page at `page`, or undefined when the page is not on a loopback name. */
export function revealFrameOrigin(page: { protocol: string; hostname: string; port: string }): string | undefined {
  const other =
    page.hostname === 'localhost'
      ? '127.0.0.1'
      : page.hostname === '127.0.0.1' || page.hostname === '[::1]'
        ? 'localhost'
        : undefined;
  if (!other) return undefined;
  return `${page.protocol}//${other}${page.port ? `:${page.port}` : ''}`;
}
