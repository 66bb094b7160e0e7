import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import module from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StdioScript, makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * `mcp-warden bundle` (the package's bin, as tsc built it: `npm run build` first) bundles the
 * notes service's built stdio entry, and the bundle it writes serves MCP: a Nest app's fast
 * start, shipped (docs/stdio.md, "Cold start"). The output goes under the checkout, as an app's
 * dist/ would, so the externals (Cedar, the SQLite driver) and the policies resolve from it.
 */

const CLI = resolve(process.cwd(), 'dist/cli/mcp-warden.js');
const ENTRY = 'dist/app/main-stdio.js';

const run = (args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });

let out: string | undefined;
let dataDir: string | undefined;
let child: StdioScript | undefined;

afterEach(async () => {
  await child?.dispose();
  child = undefined;
  if (out) await rm(out, { recursive: true, force: true });
  await removeDataDir(dataDir);
});

/** The messages of the Cedar warnings a start logged (its log lines are JSON). */
function cedarWarnings(stderr: string): string {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { message?: string }).message ?? '')
    .filter((message) => message.startsWith('Cedar: '))
    .join('\n');
}

describe('mcp-warden bundle', () => {
  it('bundles a built stdio entry into a launcher and one file, and the bundle serves a call', async () => {
    out = await mkdtemp(join(process.cwd(), '.tmp-bundle-'));
    const bundled = run(['bundle', '--entry', ENTRY, '--out', out, '--transport', 'stdio']);
    expect(bundled.stderr).toBe('');
    expect(bundled.status).toBe(0);
    const launcher = join(out, 'main-stdio.mjs');
    expect(bundled.stdout).toContain(`start it with: node ${launcher}`);
    expect(existsSync(join(out, 'main-stdio.bundle.mjs'))).toBe(true);
    // The DTO libraries, written beside it as one prebuilt file with a stand-in per package.
    expect(existsSync(join(out, 'node_modules/class-validator/index.js'))).toBe(true);

    dataDir = await makeDataDir();
    child = new StdioScript(launcher, { DATA_DIR: dataDir });
    const init = await child.initialize();
    expect(init.result.serverInfo.name).toBe('mcp-warden-notes');
    const listed = await child.request('tools/list');
    const search = listed.result.tools.find(
      (tool: { name: string }) => tool.name === 'search_notes',
    );
    // The DTO-derived schema survived the bundling.
    expect(search.inputSchema.properties).toHaveProperty('query');
    const called = await child.request('tools/call', {
      name: 'search_notes',
      arguments: { query: 'anything' },
    });
    expect(called.result.isError).toBeUndefined();
    expect(called.result.structuredContent).toEqual({ count: 0, notes: [] });
  });

  it('--preload-cedar: the launcher starts compiling Cedar before the bundle, which shares it', async () => {
    out = await mkdtemp(join(process.cwd(), '.tmp-bundle-'));
    const bundled = run([
      'bundle',
      '--entry',
      ENTRY,
      '--out',
      out,
      '--transport',
      'stdio',
      '--preload-cedar',
    ]);
    expect(bundled.status).toBe(0);
    const preload = join(out, 'main-stdio.cedar.mjs');
    expect(readFileSync(join(out, 'main-stdio.mjs'), 'utf8')).toContain(
      "(await import('./main-stdio.cedar.mjs')).precompileCedar();",
    );
    // The launcher's copy and the framework's share one head start per process.
    const probe = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const early = (await import(${JSON.stringify(pathToFileURL(preload).href)})).precompileCedar();
         const { precompileCedar } = await import('./dist/mcp/policy/cedar/cedar.precompiler.js');
         process.stdout.write(JSON.stringify({
           shared: precompileCedar() === early,
           compiled: (await early) instanceof WebAssembly.Module,
         }));`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    );
    expect(JSON.parse(probe.stdout)).toEqual({ shared: true, compiled: true });

    // The service decides with Cedar: its calls go through the preloaded engine. Two starts
    // share one compile cache: where Node has one (22.8+), the first keeps strict validation's
    // verdict there and the second takes it, logging the same Cedar warning.
    dataDir = await makeDataDir();
    const cacheDir = join(out, 'compile-cache');
    const env = { DATA_DIR: dataDir, NODE_COMPILE_CACHE: cacheDir };
    /** Each verdict file under the cache, with its inode: a verdict written again is a new file. */
    const verdicts = () =>
      (existsSync(cacheDir) ? readdirSync(cacheDir, { recursive: true }) : [])
        .map(String)
        .filter((file) => /mcp-warden-cedar-validation\/[0-9a-f]{64}\.json$/.test(file))
        .map((file) => `${file}@${statSync(join(cacheDir, file)).ino}`);
    const warnings: string[] = [];
    const kept: string[][] = [];
    for (let start = 0; start < 2; start += 1) {
      child = new StdioScript(join(out, 'main-stdio.mjs'), env);
      await child.initialize();
      const called = await child.request('tools/call', {
        name: 'search_notes',
        arguments: { query: 'anything' },
      });
      expect(called.result.structuredContent).toEqual({ count: 0, notes: [] });
      warnings.push(cedarWarnings(child.stderr.text));
      await child.dispose();
      child = undefined;
      kept.push(verdicts());
    }
    expect(warnings[0]).toContain('unknown-action-denies');
    expect(warnings[1]).toBe(warnings[0]);
    const hasCache = typeof (module as { getCompileCacheDir?: unknown }).getCompileCacheDir;
    expect(kept[0]).toHaveLength(hasCache === 'function' ? 1 : 0);
    // The second start took the first one's verdict: it wrote none.
    expect(kept[1]).toEqual(kept[0]);
  });

  it('names its options when one is missing or wrong, with exit status 2', () => {
    const missing = run(['bundle', '--entry', ENTRY]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(
      'mcp-warden bundle --entry <dist/main.js> --out <dist/bundle>',
    );
    const transport = run(['bundle', '--entry', ENTRY, '--out', 'x', '--transport', 'ws']);
    expect(transport.status).toBe(2);
    const unknown = run(['bundle', '--entry', ENTRY, '--out', 'x', '--minify-harder']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--minify-harder'");
  });

  it("an entry that does not exist fails with status 1 and esbuild's message, writing nothing", async () => {
    out = join(process.cwd(), '.tmp-bundle-missing');
    const failed = run(['bundle', '--entry', 'dist/app/no-such-entry.js', '--out', out]);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toMatch(/^mcp-warden: Build failed/m);
    expect(failed.stderr).toContain('Could not resolve "dist/app/no-such-entry.js"');
    expect(existsSync(join(out, 'no-such-entry.mjs'))).toBe(false);
  });
});
