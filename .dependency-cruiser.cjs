/**
 * The layers of src/mcp, lowest first (docs/architecture.md draws them). A folder may import
 * its own layer and the layers below it, never one above: a lower layer that needs something of
 * a higher one declares a port (an interface plus a DI token) that the higher layer provides.
 * `npm run lint` runs this, so an upward import fails CI.
 */
const LAYERS = [
  ['core', ['core']],
  ['authentication', ['authentication']],
  ['definitions', ['definitions']],
  ['authorization', ['authorization']],
  ['audit', ['audit']],
  ['policy', ['policy']],
  ['engine', ['engine']],
  ['approvals', ['approvals']],
  ['revisions', ['revisions']],
  ['transports', ['transports']],
  // cluster and telemetry are siblings: each plugs into the ports below, neither into the other.
  ['cluster', ['cluster']],
  ['telemetry', ['telemetry']],
];
const SIBLINGS = { cluster: ['telemetry'], telemetry: ['cluster'] };

const folder = (names) => `^src/mcp/(${names.join('|')})/`;
// The layers above one, and its siblings: what it must not import.
const above = (index) => [
  ...LAYERS.slice(index + 1).flatMap(([, folders]) => folders),
  ...(SIBLINGS[LAYERS[index][0]] ?? []),
];

const layerRules = LAYERS.map(([name, folders], index) => ({
  name: `layer-${name}`,
  comment: `${name} may import only itself and the layers below it (docs/architecture.md).`,
  severity: 'error',
  from: { path: folder(folders) },
  to: {
    path: [
      ...(above(index).length > 0 ? [folder(above(index))] : []),
      // The module and its options compose every layer; nothing inside a layer imports them.
      '^src/mcp/[^/]+\\.ts$',
      '^src/mcp/options/',
      '^src/(app|testing)/',
      '^src/index\\.ts$',
    ],
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'framework-not-app',
      comment: 'The framework never imports the notes service or the testing entry point.',
      severity: 'error',
      from: { path: '^src/mcp/' },
      to: { path: '^src/(app|testing)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.d.ts', '.js'] },
  },
};
