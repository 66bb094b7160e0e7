// @ts-check
/*
 * The consumer matrix: scratch apps shaped as each Nest CLI generates them, each on Express and
 * Fastify, and the Node versions each runs on. Nest 11's default is CommonJS with Jest and
 * ts-jest; Nest 12's is ESM with Vitest (apps/<template>/ holds the CLI's files).
 */

/**
 * @typedef {'node22' | 'node24' | 'machine'} NodeName   machine: the Node running this script
 * @typedef {{
 *   name: string, template: string, nestMajor: number, adapter: 'express' | 'fastify',
 *   commonjs: boolean, runner: 'jest' | 'vitest', nodes: NodeName[], kind: string,
 * }} MatrixApp
 */

/** @type {MatrixApp[]} */
export const MATRIX = [
  {
    name: 'nest11-jest-express',
    template: 'nest11-jest',
    nestMajor: 11,
    adapter: 'express',
    commonjs: true,
    runner: 'jest',
    // The most common setup runs on every Node the package supports.
    nodes: ['node22', 'node24', 'machine'],
    kind: 'CommonJS, Jest + ts-jest, Express',
  },
  {
    name: 'nest11-jest-fastify',
    template: 'nest11-jest',
    nestMajor: 11,
    adapter: 'fastify',
    commonjs: true,
    runner: 'jest',
    nodes: ['node22'],
    kind: 'CommonJS, Jest + ts-jest, Fastify',
  },
  {
    name: 'nest12-vitest-express',
    template: 'nest12-vitest',
    nestMajor: 12,
    adapter: 'express',
    commonjs: false,
    runner: 'vitest',
    nodes: ['node22'],
    kind: 'ESM, Vitest, Express',
  },
  {
    name: 'nest12-vitest-fastify',
    template: 'nest12-vitest',
    nestMajor: 12,
    adapter: 'fastify',
    commonjs: false,
    runner: 'vitest',
    nodes: ['node22'],
    kind: 'ESM, Vitest, Fastify',
  },
];

/** What each adapter adds to the app's package.json, at the app's Nest major. */
export function adapterDependencies(app) {
  const range = `^${app.nestMajor}.0.1`;
  return app.adapter === 'express'
    ? {
        dependencies: { '@nestjs/platform-express': range },
        devDependencies: { '@types/express': '^5.0.0' },
      }
    : { dependencies: { '@nestjs/platform-fastify': range }, devDependencies: {} };
}
