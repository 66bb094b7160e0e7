import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeWithRuntimes, findRuntimes } from '../support/runtimes.js';

/*
 * SQLite plans a statement around a bound LIKE pattern or LIMIT, and compiles it again whenever
 * those bindings change: on every search, which made two thirds of a search's CPU. The built
 * store runs on Node 24's node:sqlite, whose authorizer is called while SQLite compiles a
 * statement (search-plan.probe.mjs): a search or export page compiles only on its first run.
 */

const runtimes = await findRuntimes(['node24']);
const PROBE = resolve(process.cwd(), 'test/service/search-plan.probe.mjs');
const DIST = resolve(process.cwd(), 'dist');

interface Pass {
  searches: string[][];
  pages: string[][];
}
interface ProbeReport {
  first: Pass;
  second: Pass;
  storeCompiles: number;
  controlCompiles: number;
}

describeWithRuntimes(runtimes, 'the notes store on SQLite', (paths) => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mcp-warden-search-plan-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  function probe(): Promise<ProbeReport> {
    return new Promise((done, fail) => {
      execFile(
        paths.node24,
        ['--no-warnings', PROBE, DIST, dataDir],
        { timeout: 30_000 },
        (error, stdout, stderr) => {
          if (error) fail(new Error(`probe failed: ${error.message}\n${stderr}`));
          else done(JSON.parse(stdout) as ProbeReport);
        },
      );
    });
  }

  it('runs searches and export pages again with new bindings without compiling them again', async () => {
    const report = await probe();
    // What the searches found: LIKE's wildcards match literally, case does not matter, tags count.
    const found = {
      searches: [
        ['Alpha plan'],
        ['Alpha plan', 'beta'],
        ['Alpha plan', 'beta', 'gamma'],
        [],
        ['gamma'],
      ],
      pages: [['Alpha plan'], ['beta', 'gamma']],
    };
    expect(report.first).toEqual(found);
    expect(report.second).toEqual(found);
    expect(report.storeCompiles).toBe(0);
    // The probe sees a recompilation: a bare bound pattern and limit are compiled again.
    expect(report.controlCompiles).toBeGreaterThan(0);
  });
});
