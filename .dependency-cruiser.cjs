// The layer check of `npm run lint:layers` (part of `npm test`): the mock's layers import only downwards, nothing in
// the mock's sources is in an import cycle (type-only imports included), the SDK never imports the mock, and the
// mock reaches the SDK only through the SDK's package exports.
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
      comment: "No import cycle in the SDK's or the mock's sources, type-only imports included.",
      severity: 'error',
      from: { path: '^(sdk|mock-server)/src/' },
      to: { circular: true },
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
