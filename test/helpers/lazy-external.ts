import type * as esbuild from 'esbuild';

/**
 * An esbuild plugin that leaves every dynamic `import()` external (what a page does not load up front), except those
 * whose specifier ends with one of `inline`: bundled with one of them inlined, a page shows what that lazy part adds.
 * Shared by the bundle test and `npm run bench:sdk`, so both measure the same thing.
 */
export function lazyExternal(inline: readonly string[] = []): esbuild.Plugin {
  return {
    name: 'lazy-external',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'dynamic-import' && !inline.some((name) => args.path.endsWith(name))
          ? { path: args.path, external: true }
          : undefined,
      );
    },
  };
}
