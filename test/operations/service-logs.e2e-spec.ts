import { HttpServiceChild } from '../support/http-service.js';
import { StdioChild, makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * What the service writes, for an operator: nothing on stdout over HTTP,
 * JSON lines without ANSI colours on a stderr that is not a terminal, no
 * start-up chatter, and one plain line and exit code 1 when its port is taken.
 */

/** The escape that starts every ANSI colour sequence. */
const ANSI = String.fromCharCode(0x1b) + '[';

describe('the service logs', () => {
  let dir: string | undefined;
  const children: { dispose(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const child of children.splice(0)) await child.dispose();
    await removeDataDir(dir);
  });

  it('over HTTP: stdout stays empty, stderr holds the banner and JSON lines only, no colours', async () => {
    dir = await makeDataDir();
    const child = new HttpServiceChild(dir, { NEST_LOG_LEVEL: 'debug' });
    children.push(child);
    const url = await child.url;
    expect((await fetch(new URL('/health', url))).status).toBe(200);
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stdout.text).toBe('');
    expect(child.stderr.text).not.toContain(ANSI);
    const lines = child.stderr.text.trim().split('\n');
    // Beside the JSON records, two plain lines: where the notes live, and where it listens.
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([
      expect.stringMatching(/^mcp-warden: notes in sqlite .*notes\.sqlite$/),
      `MCP Warden notes service: ${url}`,
    ]);
    const records = lines.filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    // With debug on, Nest's start-up lines are there, as debug records.
    expect(records).toContainEqual(
      expect.objectContaining({ level: 'debug', context: 'RouterExplorer' }),
    );
    for (const record of records.filter((r) => !('audit' in r))) {
      expect(record).toEqual(
        expect.objectContaining({
          level: expect.any(String),
          pid: child.process.pid,
          timestamp: expect.any(Number),
          message: expect.anything(),
        }),
      );
    }
  });

  it('by default Nest start-up lines are not printed at all (stdio too)', async () => {
    dir = await makeDataDir();
    const child = new StdioChild(dir);
    children.push(child);
    await child.initialize();
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr.text).not.toContain(ANSI);
    expect(child.stderr.text).not.toMatch(/InstanceLoader|successfully started/);
  });

  it('a busy port: one plain line on stderr, nothing on stdout, exit code 1, no "started" line', async () => {
    dir = await makeDataDir();
    const first = new HttpServiceChild(dir);
    children.push(first);
    const port = new URL(await first.url).port;
    const second = new HttpServiceChild(dir, { PORT: port });
    children.push(second);
    await expect(second.url).rejects.toThrow(/before listening/);
    expect(await second.exited).toEqual({ code: 1, signal: null });
    expect(second.stdout.text).toBe('');
    const lines = second.stderr.text.trim().split('\n');
    // Its warnings (JSON records) may come first; the failure is the one plain line, and the last.
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([
      expect.stringMatching(/^mcp-warden: notes in sqlite /),
      `mcp-warden: cannot listen on 127.0.0.1:${port}: the address is already in use`,
    ]);
    expect(lines.at(-1)).toMatch(/^mcp-warden: cannot listen/);
    expect(second.stderr.text).not.toMatch(/successfully started|EADDRINUSE/);
  });
});
