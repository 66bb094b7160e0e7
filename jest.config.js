/**
 * Jest runs the TypeScript sources as native ES modules (Nest 12 is ESM-only), in three
 * projects, so a developer can run the fast ones alone (`npm run test:unit`,
 * `test:integration`, `test:system`); `npm test` runs them all.
 *
 * - unit: `src/**\/*.spec.ts` beside the code, and the scripts' and the bench's own specs;
 * - integration: `test/**\/*.e2e-spec.ts` in this process (Nest apps on 127.0.0.1:0, the SDK
 *   clients, the in-process OpenID Provider, Redis and PostgreSQL);
 * - system: suites that start child processes (the built service, cluster instances, the
 *   Inspector CLI, the soak), drive a browser, or fuzz.
 *
 * The transformer is SWC with legacy decorators and decorator metadata, as tsc emits them for
 * Nest (esbuild drops the metadata). It does not type-check: `npm run build` and
 * `npm run lint` do. Timeouts are sized for a machine a few times slower than a developer's
 * (docs/testing.md): a test that waits waits on an event, so the timeout only ends a hang.
 * @type {import('jest').Config}
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    sourceMaps: 'inline',
  },
];

/** Suites that start processes, a browser or a fuzzer (see above). */
const SYSTEM = [
  '<rootDir>/test/audit/audit-stdio-paths.e2e-spec.ts',
  '<rootDir>/test/auth/token-exchange-stdio.e2e-spec.ts',
  '<rootDir>/test/cluster/**/*.e2e-spec.ts',
  '<rootDir>/test/examples/cluster-start.e2e-spec.ts',
  '<rootDir>/test/fuzz/**/*.e2e-spec.ts',
  '<rootDir>/test/modern/inspector-cli.e2e-spec.ts',
  '<rootDir>/test/modern/sdk-v2-stdio.e2e-spec.ts',
  '<rootDir>/test/modern/stdio-modern.e2e-spec.ts',
  '<rootDir>/test/operations/**/*.e2e-spec.ts',
  '<rootDir>/test/operator/console-browser.e2e-spec.ts',
  '<rootDir>/test/operator/console-audit-browser.e2e-spec.ts',
  '<rootDir>/test/servers/several-servers-stdio.e2e-spec.ts',
  '<rootDir>/test/service/**/*.e2e-spec.ts',
  '<rootDir>/test/tasks/tasks-stdio.e2e-spec.ts',
  '<rootDir>/test/telemetry/service-metrics.e2e-spec.ts',
  '<rootDir>/test/{faults,http-sdk,soak,stdio-approval,stdio-sdk,stdio-wire}.e2e-spec.ts',
];

const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': swc },
};

export default {
  // Many suites wait on sockets and child processes, not the CPU: three workers keep two cores
  // busy where jest's default (cores - 1) leaves one idle.
  maxWorkers: 3,
  // A worker keeps every module graph it has loaded (ESM in vm contexts): past this, it is
  // replaced between files. Its heap otherwise grows by the file, and full collections slow
  // every later suite in it (the whole run took a fifth longer).
  workerIdleMemoryLimit: '700MB',
  // How long a worker may take to exit once the run has ended before Jest kills it and reports
  // "A worker process has failed to exit gracefully". Jest's 500 ms is shorter than a worker
  // with such a heap takes on two slow cores. Timed from the end message, one system run's workers
  // exited after 285-485 ms, another's after 524-560 ms (Jest had killed them at 500); logged in
  // the workers, each exited within 11 ms of reading that message, no suite's handle left. A
  // suite that does leave something running still shows, later (docs/testing.md).
  workerGracefulExitTimeout: 5_000,
  // The soak last, away from the suites that load the machine most (see the sequencer).
  testSequencer: '<rootDir>/test/support/soak-last.sequencer.mjs',
  testTimeout: 60_000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.mjs',
        '<rootDir>/bench/**/*.spec.mjs',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      // Everything in test/ that is not a system suite.
      testMatch: [
        '<rootDir>/test/**/*.e2e-spec.ts',
        ...SYSTEM.map((glob) => `!${glob.replace('<rootDir>/', '**/')}`),
      ],
    },
    { ...common, displayName: 'system', testMatch: SYSTEM },
  ],
};
