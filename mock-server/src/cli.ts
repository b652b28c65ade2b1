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

const { main } = await import('./node/cli-main.js');
const code = await main(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;

export {};
