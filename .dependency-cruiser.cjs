// The layer check of `npm run lint:layers` (part of `npm test`), over the three packages' sources, examples/, test/,
// scripts/ and bench/: the mock's layers import only downwards, nothing is in an import cycle (type-only imports
// included), the SDK never imports the mock, the mock reaches the SDK only through the SDK's package exports, the
// packages import nothing outside themselves but each other by name, the examples use the packages by name, and
// nothing imports test/ but test/ itself (a test may import what it tests).
const SRC = '^mock-server/src/';

// The mock's layers, lowest first. A module may import its own layer and those before it, never one after it.
const LAYERS = [
  { name: 'base', path: `${SRC}(clock|hash)\\.ts$` }, // leaf helpers: the virtual clock, a string hash
  { name: 'store', path: `${SRC}store/` },
  { name: 'machines', path: `${SRC}machines/` },
  { name: 'domain', path: `${SRC}domain/` },
  { name: 'pipeline', path: `${SRC}pipeline/` },
  { name: 'control/observe', path: `${SRC}(control|observe)/` },
  { name: 'adapters/node/inspector', path: `${SRC}(adapters|inspector|node/(?!(start|cli-main)\\.ts$))` },
  { name: 'mock', path: `${SRC}mock/` }, // createMock: wires the layers below into one mock
  { name: 'runners/server', path: `${SRC}(runners/|node/(start|cli-main)\\.ts$)` }, // what runs a whole mock
  { name: 'entries', path: `${SRC}(?!(clock|hash)\\.ts$)[^/]+\\.tsx?$` }, // the package's entry points
];

const above = (index) => LAYERS.slice(index + 1);
const layerRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.name} sits below ${above(index)
    .map((l) => l.name)
    .join(', ')}: it may not import them.`,
  severity: 'error',
  from: { path: layer.path },
  to: {
    path: above(index)
      .map((l) => `(${l.path})`)
      .join('|'),
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-cycles',
      comment: 'No import cycle anywhere in the workspace, type-only imports included.',
      severity: 'error',
      // Generated code aside (hey-api's client has a type-only cycle of its own).
      from: { path: '^(sdk|mock-server|contract|examples|test|scripts|bench)/', pathNot: '^sdk/generated/' },
      to: { circular: true },
    },
    {
      name: 'nothing-imports-tests',
      comment: 'Only tests import test/: the packages, examples, scripts and benchmarks stand without it.',
      severity: 'error',
      from: { pathNot: '^test/' },
      to: { path: '^test/' },
    },
    {
      name: 'packages-stand-alone',
      comment:
        "A package's sources import nothing of the examples, tests, scripts or benchmarks (a shipped package has none of them).",
      severity: 'error',
      from: { path: '^(sdk|mock-server|contract)/src/' },
      to: { path: '^(examples|test|scripts|bench)/' },
    },
    {
      name: 'examples-by-package-name',
      comment: 'The examples use the packages by their names, as an integrator does, never a path into their sources.',
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^(sdk|mock-server|contract)/', dependencyTypesNot: ['aliased-tsconfig'] },
    },
    {
      name: 'sdk-not-mock',
      comment: 'The SDK never imports the mock.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: '^mock-server/' },
    },
    {
      name: 'mock-uses-sdk-exports',
      comment:
        'The mock reaches the SDK only through its package exports (card-issuing-sdk, card-issuing-sdk/server, card-issuing-sdk/schemas, card-issuing-sdk/reveal).',
      severity: 'error',
      from: { path: '^mock-server/src/' },
      to: { path: '^sdk/', pathNot: '^sdk/src/(index|server|schemas|reveal/index)\\.ts$' },
    },
    {
      name: 'contract-by-package-name',
      comment:
        'The contract package reaches the SDK and the mock only by their package names, as an installed copy does.',
      severity: 'error',
      from: { path: '^contract/src/' },
      to: { path: '^(sdk|mock-server)/', dependencyTypesNot: ['aliased-tsconfig'] },
    },
    {
      name: 'mock-sdk-by-package-name',
      comment: 'The mock names the SDK by its package name, never by a relative path into sdk/.',
      severity: 'error',
      from: { path: '^mock-server/src/' },
      // A tsconfig path (the package name) resolves as 'local' too; only the package name is also 'aliased-tsconfig'.
      to: { path: '^sdk/', dependencyTypesNot: ['aliased-tsconfig'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    // Type-only imports are imports too: a cycle or an upward import through types is still one.
    tsPreCompilationDeps: true,
    // The workspace's paths map the package names to the sources, as the type check does.
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
