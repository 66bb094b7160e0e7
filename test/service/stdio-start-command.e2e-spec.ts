import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { makeDataDir, removeDataDir, StdioScript } from '../support/stdio-child.js';

/*
 * The stdio start command docs/notes-service.md documents, `npm run --silent start:stdio`,
 * spawned as a desktop client spawns a server: every line on stdout is a JSON-RPC message (a
 * build log or npm's banner there would break the client), and it starts the bundle that
 * `npm run build` made without rebuilding it.
 */

const BUNDLE = resolve(process.cwd(), 'dist/bundle/main-stdio.mjs');

/** The environment a desktop client gives the command: this one without npm's or jest's. */
function clientEnv(dataDir: string): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && !entry[0].startsWith('npm_') && entry[0] !== 'NODE_OPTIONS',
    ),
  );
  return { ...env, DATA_DIR: dataDir };
}

describe('the documented stdio start command', () => {
  let dataDir: string | undefined;
  let child: StdioScript | undefined;
  afterEach(async () => {
    if (child?.running) child.process.kill('SIGKILL');
    await child?.exited;
    await removeDataDir(dataDir);
  });

  it('npm run --silent start:stdio prints only JSON-RPC on stdout, and starts the built bundle without rebuilding it', async () => {
    const built = statSync(BUNDLE).mtimeMs;
    dataDir = await makeDataDir();
    child = new StdioScript(['npm', 'run', '--silent', 'start:stdio'], clientEnv(dataDir));
    const init = await child.initialize();
    expect(init.result.serverInfo).toMatchObject({ name: expect.any(String) });
    const listed = await child.request('tools/list');
    expect(listed.result.tools.map((tool: { name: string }) => tool.name)).toContain(
      'search_notes',
    );
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    await child.stdoutClosed;
    // Every line, not just the ones awaited: a non-JSON line fails the parse here.
    const messages = child.messages();
    expect(messages.every((message) => message.jsonrpc === '2.0')).toBe(true);
    expect(child.lines.length).toBe(messages.length);
    expect(statSync(BUNDLE).mtimeMs).toBe(built);
  });
});
