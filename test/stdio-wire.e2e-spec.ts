import { Injectable } from '@nestjs/common';
import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { McpStdioTransport, McpTool, type McpToolContext } from '../src/index.js';
import { createMcpApp, type McpTestApp } from './support/mcp-test-app.js';
import { StdioChild, makeDataDir, removeDataDir } from './support/stdio-child.js';

/*
 * The stdio wire: the built notes service (dist/bundle/main-stdio.mjs, run
 * `npm run build` first) spawned over raw pipes, then the transport class on
 * in-memory streams.
 */

const ping = (id: number | string | null) => ({ jsonrpc: '2.0', id, method: 'ping' });
const line = (message: object) => JSON.stringify(message) + '\n';

describe('stdio wire (spawned service)', () => {
  let dataDir: string;
  let child: StdioChild;

  beforeEach(async () => {
    dataDir = await makeDataDir();
    child = new StdioChild(dataDir);
  });

  afterEach(async () => {
    await child.dispose();
    await removeDataDir(dataDir);
  });

  it('writes nothing but JSON-RPC messages on stdout; its logs go to stderr', async () => {
    const init = await child.initialize();
    expect(init.result.serverInfo.name).toBe('mcp-warden-notes');
    await child.request('tools/list');
    await child.request('logging/setLevel', { level: 'debug' });
    const created = await child.request('tools/call', {
      name: 'create_note',
      arguments: { title: 'wire', body: 'only protocol on stdout' },
    });
    expect(created.result.isError).toBeUndefined();
    await child.request('tools/call', { name: 'delete_note', arguments: { id: 'nope' } });
    await child.request('resources/read', { uri: 'file:///etc/passwd' });
    child.process.stdin.end();
    await child.exited;
    await child.stdoutClosed;

    expect(child.lines.length).toBeGreaterThanOrEqual(7);
    for (const text of child.lines) {
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(text) as Record<string, unknown>;
      } catch {
        throw new Error(`stdout line is not JSON: ${text.slice(0, 200)}`);
      }
      expect(message.jsonrpc).toBe('2.0');
      const isResponse = 'id' in message && ('result' in message || 'error' in message);
      const isNotificationOrRequest = typeof message.method === 'string';
      expect(isResponse || isNotificationOrRequest).toBe(true);
    }
    // Where the notes live, and the audit lines, were written: on stderr.
    expect(child.stderr.text).toMatch(/^mcp-warden: notes in sqlite /m);
    expect(child.stderr.text).toContain('{"audit":');
  });

  it('answers a line that is not JSON with -32700 and id null', async () => {
    child.write('{"jsonrpc":"2.0","id":1,"method":"ping"\n');
    const reply = await child.lineAt(0);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
  });

  it('answers a 5 MiB line with -32600 and id null, then keeps serving', async () => {
    await child.initialize();
    const from = child.lines.length;
    child.write(Buffer.alloc(5 * 1024 * 1024, 'a'));
    child.write('\n');
    child.send(ping(42));

    const tooLarge = await child.lineAt(from);
    expect(tooLarge).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.any(String) },
    });
    const pong = await child.waitFor((m) => m.id === 42, from);
    expect(pong).toEqual({ jsonrpc: '2.0', id: 42, result: {} });
    expect(child.running).toBe(true);
  });

  it('ignores an empty line', async () => {
    await child.initialize();
    const from = child.lines.length;
    child.write('\n');
    child.write('\n\n');
    child.send(ping(7));

    expect(await child.lineAt(from)).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
  });

  it('sends nothing back for notifications', async () => {
    await child.initialize();
    const from = child.lines.length;
    child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    child.send({ jsonrpc: '2.0', method: 'notifications/no_such_notification', params: {} });
    child.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999 } });
    await child.request('ping');
    await child.request('ping');

    expect(child.lines.slice(from).map((text) => JSON.parse(text))).toEqual([
      { jsonrpc: '2.0', id: expect.any(Number), result: {} },
      { jsonrpc: '2.0', id: expect.any(Number), result: {} },
    ]);
  });

  it('answers an unknown method with -32601 naming it', async () => {
    await child.initialize();
    const reply = await child.request('no/such_method', {});
    expect(reply.error.code).toBe(-32601);
    expect(reply.error.message).toContain('no/such_method');
    expect(reply.result).toBeUndefined();
  });

  it('answers a request whose id is null with -32600', async () => {
    child.send(ping(null));
    const reply = await child.lineAt(0);
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: expect.any(String) },
    });
  });

  it('accepts CRLF line endings', async () => {
    child.write(JSON.stringify(ping('crlf-1')) + '\r\n' + JSON.stringify(ping('crlf-2')) + '\r\n');
    const first = await child.waitFor((m) => m.id === 'crlf-1');
    const second = await child.waitFor((m) => m.id === 'crlf-2');
    expect(first).toEqual({ jsonrpc: '2.0', id: 'crlf-1', result: {} });
    expect(second).toEqual({ jsonrpc: '2.0', id: 'crlf-2', result: {} });
    expect(child.lines.every((text) => !text.endsWith('\r'))).toBe(true);
  });

  it('exits with code 0 when stdin ends', async () => {
    await child.initialize();
    child.process.stdin.end();
    await expect(child.exited).resolves.toEqual({ code: 0, signal: null });
  });

  it('exits with code 0 on SIGTERM', async () => {
    // Once initialize is answered the transport runs and the signal handler is installed.
    await child.initialize();
    child.process.kill('SIGTERM');
    await expect(child.exited).resolves.toEqual({ code: 0, signal: null });
  });
});

/** A writable that records every line synchronously, as it is written. */
class LineSink extends Writable {
  readonly lines: string[] = [];
  /** How many writes reached the stream (each one a syscall on a real pipe). */
  writes = 0;
  private partial = '';
  private waiters: { test: (m: any) => boolean; resolve: (m: any) => void }[] = [];

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    this.writes += 1;
    const parts = (this.partial + chunk.toString('utf8')).split('\n');
    this.partial = parts.pop() ?? '';
    for (const text of parts) {
      this.lines.push(text);
      const message = JSON.parse(text);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.test(message)) return true;
        waiter.resolve(message);
        return false;
      });
    }
    done();
  }

  messages(): any[] {
    return this.lines.map((text) => JSON.parse(text));
  }

  waitFor(test: (m: any) => boolean): Promise<any> {
    const found = this.messages().find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }
}

/** A latch a test opens by hand. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

let slowStarted = latch();
let slowRelease = latch();

@Injectable()
class WireTools {
  @McpTool({ description: 'Waits until the test releases it', input: { type: 'object' } })
  async slow(_args: Record<string, unknown>, _ctx: McpToolContext) {
    slowStarted.open();
    await slowRelease.promise;
    return 'slow done';
  }

  @McpTool({
    description: 'Echo',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return `echo: ${text}`;
  }
}

describe('McpStdioTransport (in-memory streams)', () => {
  let app: McpTestApp;
  let input: PassThrough;
  let output: LineSink;
  let transport: McpStdioTransport;

  beforeEach(async () => {
    slowStarted = latch();
    slowRelease = latch();
    app = await createMcpApp({ transport: 'stdio' }, [WireTools]);
    input = new PassThrough();
    output = new LineSink();
    transport = new McpStdioTransport(app.server, { input, output });
  });

  afterEach(async () => {
    slowRelease.open();
    if (!input.writableEnded) input.end();
    await app.close();
  });

  it('writes the response of a call still in flight when input ends before run() resolves', async () => {
    const running = transport.run();
    let linesWhenRunResolved: string[] | undefined;
    const finished = running.then(() => {
      linesWhenRunResolved = [...output.lines];
    });

    input.write(
      line({ jsonrpc: '2.0', id: 'slow-1', method: 'tools/call', params: { name: 'slow' } }),
    );
    await slowStarted.promise;
    const ended = once(input, 'end');
    input.end();
    await ended;
    expect(linesWhenRunResolved).toBeUndefined();

    slowRelease.open();
    await finished;
    expect(linesWhenRunResolved!.map((text) => JSON.parse(text))).toEqual([
      {
        jsonrpc: '2.0',
        id: 'slow-1',
        result: { content: [{ type: 'text', text: 'slow done' }] },
      },
    ]);
  });

  it('answers a chunk of pipelined calls a turn of 16 lines at a time, one write per turn', async () => {
    void transport.run();
    const calls = Array.from({ length: 40 }, (_, id) =>
      line({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: `${id}` } },
      }),
    );
    input.write(calls.join(''));
    await output.waitFor((m) => m.id === 39);
    await new Promise((resolve) => setImmediate(resolve));
    expect(output.messages().map((m) => m.result.content[0].text)).toEqual(
      calls.map((_, id) => `echo: ${id}`),
    );
    // 16 + 16 + 8 lines: the first replies leave while the rest are still being served.
    expect(output.writes).toBe(3);
  });

  it('decodes a request split across chunks, inside multi-byte UTF-8 characters', async () => {
    const running = transport.run();
    const text = 'h\u00e9llo \u{1F600} w\u00f6rld \u65e5\u672c';
    const bytes = Buffer.from(
      line({
        jsonrpc: '2.0',
        id: 'utf8',
        method: 'tools/call',
        params: { name: 'echo', arguments: { text } },
      }),
      'utf8',
    );
    // Cut inside é (2 bytes), inside the emoji (4 bytes) and inside 日 (3 bytes).
    const e = bytes.indexOf(Buffer.from('\u00e9'));
    const emoji = bytes.indexOf(Buffer.from('\u{1F600}'));
    const kanji = bytes.indexOf(Buffer.from('\u65e5'));
    const cuts = [e + 1, emoji + 1, emoji + 3, kanji + 2];
    const chunks = [0, ...cuts].map((start, i) => bytes.subarray(start, cuts[i]));
    expect(Buffer.concat(chunks)).toEqual(bytes);
    const strict = new TextDecoder('utf-8', { fatal: true });
    for (const chunk of chunks.slice(0, -1)) expect(() => strict.decode(chunk)).toThrow();

    for (const chunk of chunks) {
      const delivered = once(input, 'data');
      input.write(chunk);
      await delivered;
    }
    const reply = await output.waitFor((m) => m.id === 'utf8');
    expect(reply).toEqual({
      jsonrpc: '2.0',
      id: 'utf8',
      result: { content: [{ type: 'text', text: `echo: ${text}` }] },
    });

    input.end();
    await running;
  });
});
