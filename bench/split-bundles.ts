/**
 * What a page downloads, measured as bundlers ship it: with code splitting, every `import()` its own chunk, loaded
 * when the code reaches it. Two bundlers: esbuild (`splitting: true`, ESM, minified, browser) and a Vite production
 * build (Rolldown). For each page: the chunks it loads up front (the entry and what it imports statically), and what
 * it has loaded once a part is used (each `import()` the part triggers, with what those chunks import). Sizes are
 * gzip -9 of each chunk on its own, as a server sends them. Used by `npm run bench:sdk`.
 * @module
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** One chunk of a split build. */
interface Chunk {
  file: string;
  bytes: Uint8Array;
  /** Chunks it imports statically (loaded with it). */
  imports: string[];
  /** Chunks it imports with `import()`. */
  dynamicImports: string[];
  /** The source modules in it (absolute or root-relative paths). */
  modules: string[];
}

/** A split build of one page. */
export interface SplitBuild {
  chunks: Map<string, Chunk>;
  entry: string;
}

/** Sizes of a set of chunks. */
export interface Load {
  min: number;
  gzip: number;
  chunks: number;
}

/** What the page loads up front, and after `import()`s of the chunks whose modules match `parts` are done. */
export function loadOf(build: SplitBuild, parts: readonly RegExp[] = []): Load {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const chunk = build.chunks.get(file)!;
    for (const next of chunk.imports) visit(next);
    // A used part: the dynamic chunk that holds one of its modules is loaded as well (with its own imports).
    for (const next of chunk.dynamicImports) {
      if (build.chunks.get(next)!.modules.some((m) => parts.some((p) => p.test(m)))) visit(next);
    }
  };
  visit(build.entry);
  let min = 0;
  let gzip = 0;
  for (const file of seen) {
    const { bytes } = build.chunks.get(file)!;
    min += bytes.byteLength;
    gzip += gzipSync(bytes, { level: 9 }).byteLength;
  }
  return { min, gzip, chunks: seen.size };
}

/** esbuild, as an app bundles for the browser: ESM, code splitting, minified, es2023. */
export async function esbuildSplit(page: string): Promise<SplitBuild> {
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true }); // absent after a fresh npm ci
  const dir = mkdtempSync(join(root, 'node_modules/.cache/split-esbuild-'));
  try {
    const pageFile = join(dir, 'page.ts');
    writeFileSync(pageFile, page);
    const result = await esbuild.build({
      entryPoints: [pageFile],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2023',
      minify: true,
      outdir: join(dir, 'out'),
      write: false,
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: root,
    });
    const contents = new Map(result.outputFiles.map((f) => [f.path, f.contents]));
    const chunks = new Map<string, Chunk>();
    let entry = '';
    for (const [file, meta] of Object.entries(result.metafile.outputs)) {
      if (file.endsWith('.map')) continue;
      const path = join(root, file);
      chunks.set(file, {
        file,
        bytes: contents.get(path)!,
        imports: meta.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path),
        dynamicImports: meta.imports.filter((i) => i.kind === 'dynamic-import' && !i.external).map((i) => i.path),
        modules: Object.keys(meta.inputs),
      });
      // Every import() target is an entry point of esbuild's too: the page's is the one built from page.ts.
      if (meta.entryPoint?.endsWith('page.ts')) entry = file;
    }
    return { chunks, entry };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A Vite production build of the page (Rolldown; Vite's own preload helper included, as an app ships it). */
export async function viteSplit(page: string): Promise<SplitBuild> {
  const { build } = await import('vite');
  mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, 'node_modules/.cache/split-vite-'));
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'page.ts'), page);
    const output = await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      publicDir: false,
      build: {
        write: false,
        target: 'es2023',
        minify: true,
        modulePreload: { polyfill: false },
        rollupOptions: { input: join(dir, 'page.ts') },
      },
    });
    const outputs = (Array.isArray(output) ? output : [output]) as unknown as {
      output: Array<Record<string, unknown>>;
    }[];
    const chunks = new Map<string, Chunk>();
    let entry = '';
    for (const item of outputs[0]!.output) {
      if (item.type !== 'chunk') continue;
      const file = item.fileName as string;
      chunks.set(file, {
        file,
        bytes: new TextEncoder().encode(item.code as string),
        imports: item.imports as string[],
        dynamicImports: item.dynamicImports as string[],
        modules: (item.moduleIds as string[] | undefined) ?? Object.keys(item.modules as object),
      });
      if (item.isEntry && (item.facadeModuleId as string | null)?.endsWith('page.ts')) entry = file;
    }
    return { chunks, entry };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
