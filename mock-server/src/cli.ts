#!/usr/bin/env node
/**
 * The `card-issuing-mock` command (package.json `bin`, built to dist/cli.js). This file only checks the Node
 * version, so that an old Node says so plainly instead of failing inside a dependency; the command itself is in
 * `node/cli-main.ts`.
 * @module
 */
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`card-issuing-mock needs Node.js 22 or newer; this is Node.js ${process.versions.node}.\n`);
  process.exit(1);
}

// Node 22 prints one ExperimentalWarning when the state file loads node:sqlite (Node 24 prints none): that line is
// about Node, not about the user's mock, so the command keeps it out of their terminal. Every other warning stays.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const text = typeof warning === 'string' ? warning : warning.message;
  const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
  if (type === 'ExperimentalWarning' && /SQLite/i.test(text)) return;
  (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;

const { main } = await import('./node/cli-main.js');
const code = await main(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;

export {};
