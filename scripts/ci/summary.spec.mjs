import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  countConformance,
  countJest,
  countPack,
  packAppLines,
  parseArgs,
  summarize,
} from './summary.mjs';

const SCRIPT = fileURLToPath(new URL('./summary.mjs', import.meta.url));
const jest = (passed, failed, runtimeErrors = 0) =>
  JSON.stringify({
    numPassedTests: passed,
    numFailedTests: failed,
    numRuntimeErrorTestSuites: runtimeErrors,
  });

describe('CI summary counts', () => {
  it('a jest run adds its passed and failed tests and the suites that failed to run', () => {
    expect(countJest(jest(10, 2, 1), 1)).toEqual({ passed: 10, failed: 3 });
    expect(countJest(jest(10, 0), 0)).toEqual({ passed: 10, failed: 0 });
  });

  it('a skipped or todo test is a failure: nothing may be skipped in CI', () => {
    const results = JSON.parse(jest(10, 0));
    const skipped = JSON.stringify({ ...results, numPendingTests: 2, numTodoTests: 1 });
    expect(countJest(skipped, 0)).toEqual({ passed: 10, failed: 3 });
  });

  it('a jest run that wrote no results, or unreadable ones, is one failure', () => {
    expect(countJest(undefined, 0)).toEqual({ passed: 0, failed: 1 });
    expect(countJest('{"numPassedTests"', 1)).toEqual({ passed: 0, failed: 1 });
    expect(countJest('{}', 0)).toEqual({ passed: 0, failed: 1 });
  });

  it('a jest run that exited non-zero with every test passing is one failure more', () => {
    expect(countJest(jest(5, 0), 1)).toEqual({ passed: 5, failed: 1 });
  });

  it('a conformance log counts its last Total line; none is a failure, a failed run without a failed check one more', () => {
    const log = 'Total: 3 passed, 1 failed\n…\nTotal: 40 passed, 0 failed\n';
    expect(countConformance(log, 0)).toEqual({ passed: 40, failed: 0 });
    expect(countConformance(log, 1)).toEqual({ passed: 40, failed: 1 });
    expect(countConformance('Total: 38 passed, 2 failed\n', 1)).toEqual({ passed: 38, failed: 2 });
    expect(countConformance('crashed\n', 1)).toEqual({ passed: 0, failed: 2 });
    expect(countConformance(undefined, 0)).toEqual({ passed: 0, failed: 1 });
  });

  it('every conformance run counts on its own: the tasks run ends with its own Total line', () => {
    const tasks = [
      'Passed: 9/9, 0 failed, 0 warnings',
      '  ✓ tasks-lifecycle: 9 passed, 0 failed',
      '  ✗ tasks-capability-negotiation: 4 passed, 1 failed',
      'Total: 13 passed, 1 failed',
    ].join('\n');
    const files = {
      'active.log': 'Total: 40 passed, 0 failed\n',
      '2026.log':
        'All scenarios run, scored or not: 195 passed, 1 failed\nTotal: 120 passed, 0 failed\n',
      '2025.log': 'Total: 80 passed, 0 failed\n',
      'tasks.log': tasks,
    };
    const runs = [
      { kind: 'conformance', name: 'active.log', status: 0 },
      { kind: 'conformance', name: '2026.log', status: 0 },
      { kind: 'conformance', name: '2025.log', status: 0 },
      { kind: 'conformance', name: 'tasks.log', status: 1 },
    ];
    const { passed, failed, lines } = summarize(runs, (file) => files[file]);
    expect({ passed, failed }).toEqual({ passed: 253, failed: 1 });
    expect(lines.at(-1)).toBe('conformance tasks.log (exit 1): 13 passed, 1 failed');
  });

  it('the pack check is one check per app, one failure for a bad tarball, one for no apps', () => {
    const both = { tarball: { ok: true }, apps: [{ ok: true }, { ok: true }] };
    expect(countPack(JSON.stringify(both), 0)).toEqual({ passed: 2, failed: 0 });
    const bad = { tarball: { ok: false }, apps: [{ ok: true }, { ok: false }] };
    expect(countPack(JSON.stringify(bad), 1)).toEqual({ passed: 1, failed: 2 });
    expect(countPack(JSON.stringify({ tarball: { ok: true }, apps: [] }), 0)).toEqual({
      passed: 0,
      failed: 1,
    });
    expect(countPack(JSON.stringify(both), 1)).toEqual({ passed: 2, failed: 1 });
    expect(countPack(undefined, 1)).toEqual({ passed: 0, failed: 1 });
  });

  it('names every app of the pack check, with its verdict', () => {
    const apps = [
      { name: 'nest11-jest-express (node 22.1.0)', ok: true },
      { name: 'nest12-vitest-fastify (node 22.1.0)', ok: false },
    ];
    expect(packAppLines(JSON.stringify({ tarball: { ok: true }, apps }))).toEqual([
      'pack app nest11-jest-express (node 22.1.0): ok',
      'pack app nest12-vitest-fastify (node 22.1.0): FAIL',
    ]);
    expect(packAppLines(undefined)).toEqual([]);
  });

  it('sums every input, and a check passes only with status 0', () => {
    const files = { 'a.json': jest(7, 1), 'c.log': 'Total: 4 passed, 0 failed' };
    const { passed, failed, lines } = summarize(
      [
        { kind: 'check', name: 'lint', status: 0 },
        { kind: 'check', name: 'bench', status: 2 },
        { kind: 'jest', name: 'a.json', status: 1 },
        { kind: 'jest', name: 'missing.json', status: 1 },
        { kind: 'conformance', name: 'c.log', status: 0 },
      ],
      (file) => files[file],
    );
    expect({ passed, failed }).toEqual({ passed: 12, failed: 3 });
    expect(lines).toHaveLength(5);
    expect(lines[1]).toBe('check bench (exit 2): 0 passed, 1 failed');
  });

  it('parses --kind NAME=STATUS pairs and refuses anything else', () => {
    expect(parseArgs(['--check', 'lint=0', '--jest', '.tmp/a=b.json=1'])).toEqual([
      { kind: 'check', name: 'lint', status: 0 },
      { kind: 'jest', name: '.tmp/a=b.json', status: 1 },
    ]);
    expect(() => parseArgs(['--check', 'lint'])).toThrow(/NAME=STATUS/);
    expect(() => parseArgs(['--tests', 'a=0'])).toThrow(/NAME=STATUS/);
    expect(() => parseArgs(['--check'])).toThrow(/NAME=STATUS/);
  });

  it('as a command: reads the files and ends with the plain line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-summary-'));
    try {
      writeFileSync(join(dir, 'r.json'), jest(3, 0));
      const run = spawnSync(
        process.execPath,
        [
          SCRIPT,
          '--check',
          'lint=0',
          '--jest',
          `${join(dir, 'r.json')}=0`,
          '--pack',
          'none.json=1',
        ],
        { encoding: 'utf8' },
      );
      expect(run.status).toBe(0);
      expect(run.stdout.trim().split('\n').pop()).toBe('4 passed, 1 failed');
      const refused = spawnSync(process.execPath, [SCRIPT, '--check', 'lint'], {
        encoding: 'utf8',
      });
      expect(refused.status).toBe(2);
      expect(refused.stdout.trim()).toBe('0 passed, 1 failed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
