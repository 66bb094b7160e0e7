/**
 * Jest runs the TypeScript sources as native ES modules (Nest 12 is ESM-only).
 * `isolatedModules` in tsconfig makes ts-jest transpile without type-checking:
 * `npm run build` (the pretest step) is where types are checked.
 * @type {import('jest').Config}
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  testTimeout: 20000,
};
