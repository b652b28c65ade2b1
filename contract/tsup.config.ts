import { readdirSync } from 'node:fs';
import { defineConfig } from 'tsup';

// card-issuing-contract: a command, not a library. ESM for Node only; the CLI and every suite file are entries
// (node:test runs each suite file in a process of its own). No shared chunks: node:test names a test's file by
// where \`it()\` was called, so each suite file carries its own copy of the harness and reports under its own name.
// The dependencies stay external; the mock control client (card-issuing-mock/control) is bundled in. The spec
// is copied beside (package.json build:js).
const suite = Object.fromEntries(
  readdirSync('src/suite')
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => [`suite/${name.replace(/\.ts$/, '')}`, `src/suite/${name}`]),
);

// `card-issuing-contract/conformance`: the independent checker (Ajv on the raw spec) as a library, for the demo and
// anyone checking recorded traffic; its declarations are built by `npm run build` (`build:js` skips them).
export default defineConfig({
  entry: { cli: 'src/cli.ts', conformance: 'src/conformance/index.ts', ...suite },
  dts: { entry: { conformance: 'src/conformance/index.ts' } },
  format: ['esm'],
  platform: 'node',
  target: 'node22',
  splitting: false,
  // node:test exists only under its node: name; tsup would strip the prefix.
  removeNodeProtocol: false,
  external: [/^card-issuing-sdk/, 'ajv', 'ajv-formats', 'yaml', /^node:/],
});
