import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { makeDataDir, removeDataDir, StdioChild, StdioScript } from '../support/stdio-child.js';
import {
  approvalQuestion,
  ELICIT,
  envelope,
  MODERN,
  SERVER_INFO_KEY,
  SUBSCRIPTION_ID_KEY,
} from './modern-app.js';

/*
 * The modern era over stdio, raw lines, against the built notes service
 * (dist/bundle/main-stdio.mjs; `npm run build` first): the era is decided per
 * line, so modern requests and a handshake-era session share the process;
 * the server never writes a JSON-RPC request for a modern request (questions
 * ride input-required results); listen streams are tagged and end cleanly.
 */

const SERVER = { [SERVER_INFO_KEY]: { name: 'mcp-warden-notes', version: '0.1.0' } };
type Message = Record<string, any>;

describe('the modern era over stdio (the notes service)', () => {
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

  /** A modern request on the child's stdin; resolves to its response line. */
  function modern(
    method: string,
    params: Record<string, unknown> = {},
    capabilities: object = {},
    meta: Record<string, unknown> = {},
  ): Promise<Message> {
    return child.request(method, { ...params, _meta: envelope(capabilities, meta) });
  }

  async function createNote(title: string): Promise<{ id: string }> {
    const reply = await modern('tools/call', {
      name: 'create_note',
      arguments: { title, body: 'b' },
    });
    return reply.result.structuredContent as { id: string };
  }

  /** No line the server wrote is a JSON-RPC request (a method and an id). */
  function expectNoServerRequests() {
    expect(child.messages().filter((m) => 'method' in m && 'id' in m)).toEqual([]);
  }

  it('server/discover is answered without initialize; its versions are the modern ones', async () => {
    const reply = await modern('server/discover');
    expect(reply.result).toMatchObject({
      supportedVersions: [MODERN],
      instructions: 'Team notes: search, create and (with approval) delete notes.',
      resultType: 'complete',
      _meta: SERVER,
      ttlMs: 0,
      cacheScope: 'private',
    });
  });

  it('a modern request and a handshake-era initialize on the same process are each served in their era', async () => {
    const before = await modern('tools/call', {
      name: 'search_notes',
      arguments: { query: 'x' },
    });
    expect(before.result).toMatchObject({
      structuredContent: { count: 0, notes: [] },
      resultType: 'complete',
    });
    const init = await child.initialize();
    expect(init.result.protocolVersion).toBe('2025-11-25');
    const legacy = await child.request('tools/call', {
      name: 'search_notes',
      arguments: { query: 'x' },
    });
    expect(legacy.result).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ count: 0, notes: [] }) }],
      structuredContent: { count: 0, notes: [] },
    });
    const after = await modern('tools/list');
    expect(after.result).toMatchObject({ resultType: 'complete', _meta: SERVER, ttlMs: 0 });
    const ping = await modern('ping');
    expect(ping.error).toEqual({ code: -32601, message: 'Method not found: ping' });
  });

  it("a handler's elicitation becomes input_required: no JSON-RPC request is written", async () => {
    const note = await createNote('Untagged');
    const reply = await modern(
      'tools/call',
      { name: 'tag_note', arguments: { id: note.id } },
      ELICIT,
    );
    expect(reply.result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        'elicit-0': {
          method: 'elicitation/create',
          params: {
            message: `Which tag should note ${note.id} get?`,
            requestedSchema: {
              type: 'object',
              properties: { tag: { type: 'string', title: 'Tag', minLength: 1, maxLength: 50 } },
              required: ['tag'],
            },
          },
        },
      },
      requestState: expect.any(String),
    });
    const tagged = await modern(
      'tools/call',
      {
        name: 'tag_note',
        arguments: { id: note.id },
        inputResponses: { 'elicit-0': { action: 'accept', content: { tag: 'urgent' } } },
        requestState: reply.result.requestState,
      },
      ELICIT,
    );
    expect(tagged.result.structuredContent).toMatchObject({ id: note.id, tags: ['urgent'] });
    expectNoServerRequests();
  });

  it('the approval becomes input_required too, and the approved retry deletes the note once', async () => {
    const note = await createNote('Doomed');
    const args = { id: note.id };
    const first = await modern('tools/call', { name: 'delete_note', arguments: args }, ELICIT);
    expect(first.result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        approval: approvalQuestion('delete_note', `Delete note ${note.id}? This cannot be undone.`),
      },
      requestState: expect.any(String),
    });
    const approved = await modern(
      'tools/call',
      {
        name: 'delete_note',
        arguments: args,
        inputResponses: { approval: { action: 'accept', content: { approve: true } } },
        requestState: first.result.requestState,
      },
      ELICIT,
    );
    expect(approved.result).toEqual({
      content: [{ type: 'text', text: `Deleted note ${note.id}` }],
      resultType: 'complete',
      _meta: SERVER,
    });
    expectNoServerRequests();
  });

  it('export_notes as a task over stdio: created, polled, ended with every note in its file', async () => {
    await createNote('first');
    await createNote('second');
    const tasks = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const created = await modern('tools/call', { name: 'export_notes', arguments: {} }, tasks);
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result.taskId;
    let task: Message;
    do task = (await modern('tasks/get', { taskId }, tasks)).result;
    while (task.status === 'working');
    expect(task.status).toBe('completed');
    const { file, count } = task.result.structuredContent as { file: string; count: number };
    expect(count).toBe(2);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).title)).toEqual(['first', 'second']);
    expectNoServerRequests();
  });

  it('a handler input the request did not declare the capability for: -32021', async () => {
    const note = await createNote('Plain');
    const reply = await modern('tools/call', { name: 'tag_note', arguments: { id: note.id } });
    expect(reply.error).toEqual({
      code: -32021,
      message: 'Missing required client capability: elicitation',
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('log lines only for a request that set a log level, before its answer', async () => {
    const quiet = await modern('tools/call', {
      name: 'create_note',
      arguments: { title: 'q', body: 'b' },
    });
    const loud = await modern(
      'tools/call',
      { name: 'create_note', arguments: { title: 'l', body: 'b' } },
      {},
      { 'io.modelcontextprotocol/logLevel': 'info' },
    );
    const logs = child.messages().filter((m) => m.method === 'notifications/message');
    expect(logs).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: {
          level: 'info',
          logger: 'notes',
          data: { event: 'note_created', id: loud.result.structuredContent.id },
        },
      },
    ]);
    const lines = child.messages();
    const logAt = lines.findIndex((m) => m.method === 'notifications/message');
    expect(logAt).toBeLessThan(lines.findIndex((m) => m.id === loud.id));
    expect(quiet.result.isError).toBeUndefined();
  });

  it('a modern-only client gets no server-wide notifications outside a listen stream', async () => {
    await createNote('One');
    await createNote('Two');
    expect(child.messages().filter((m) => m.method?.startsWith('notifications/'))).toEqual([]);
  });

  it("the service's read policy lets a modern client open subscriptions/listen", async () => {
    child.send({
      jsonrpc: '2.0',
      id: 'notes-watch',
      method: 'subscriptions/listen',
      params: { notifications: { resourceSubscriptions: ['notes://index'] }, _meta: envelope() },
    });
    const ack = await child.waitFor(
      (m) => m.method === 'notifications/subscriptions/acknowledged' || m.id === 'notes-watch',
    );
    // Acknowledged, not refused: a refusal would be the listen request's own (error) response.
    expect(ack).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: { resourceSubscriptions: ['notes://index'] } },
    });
  });
});

describe('subscriptions/listen over stdio (an app whose seams allow everything)', () => {
  const SCRIPT = resolve(process.cwd(), 'test/modern/modern-stdio.mjs');
  const LISTEN = { notifications: { resourceSubscriptions: ['app://watched'] } };
  const ack = {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { ...LISTEN, _meta: { [SUBSCRIPTION_ID_KEY]: 'watch' } },
  };
  const APP = { [SERVER_INFO_KEY]: { name: 'modern-stdio', version: '1.0.0' } };
  let child: StdioScript;

  beforeEach(() => {
    child = new StdioScript(SCRIPT);
  });
  afterEach(() => child.dispose());

  const modern = (method: string, params: Record<string, unknown> = {}) =>
    child.request(method, { ...params, _meta: envelope() });
  const touch = (uri: string) => modern('tools/call', { name: 'touch', arguments: { uri } });

  function openListen(): Promise<Message> {
    child.send({
      jsonrpc: '2.0',
      id: 'watch',
      method: 'subscriptions/listen',
      params: { ...LISTEN, _meta: envelope() },
    });
    return child.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
  }

  it('the ack first, then only the subscribed URI, tagged with the listen id; notifications/cancelled ends it with no response', async () => {
    expect(await openListen()).toEqual(ack);
    await touch('app://other');
    await touch('app://watched');
    const updated = await child.waitFor((m) => m.method === 'notifications/resources/updated');
    expect(updated).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'app://watched', _meta: { [SUBSCRIPTION_ID_KEY]: 'watch' } },
    });
    child.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'watch', _meta: envelope() },
    });
    // The cancel is served before the next line: once this touch is answered, the listen is over.
    await touch('app://watched');
    await modern('tools/list');
    const updates = child.messages().filter((m) => m.method === 'notifications/resources/updated');
    expect(updates).toHaveLength(1);
    expect(child.messages().filter((m) => m.id === 'watch')).toEqual([]);
    expect(child.messages().filter((m) => 'method' in m && 'id' in m)).toEqual([]);
  });

  it('SIGTERM with a listen open: notifications/cancelled, then the final result, then exit 0', async () => {
    expect(await openListen()).toEqual(ack);
    child.process.kill('SIGTERM');
    const exit = await child.exited;
    await child.stdoutClosed;
    const tail = child
      .messages()
      .filter((m) => m.id === 'watch' || m.method === 'notifications/cancelled');
    expect(tail).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'watch', reason: 'server shutting down' },
      },
      {
        jsonrpc: '2.0',
        id: 'watch',
        result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_KEY]: 'watch', ...APP } },
      },
    ]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(child.stderr.text).toMatch(/modern-stdio: shut down\n$/);
  });

  it('stdin closing with a listen open: the app is closed (its shutdown hooks run), then the process exits 0', async () => {
    expect(await openListen()).toEqual(ack);
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    await child.stderr.untilEnd();
    expect(child.stderr.text).toMatch(/modern-stdio: shut down\n$/);
  });

  it('stdin closing with nothing open: the same clean exit (the baseline)', async () => {
    await touch('app://watched');
    child.process.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    await child.stderr.untilEnd();
    expect(child.stderr.text).toMatch(/modern-stdio: shut down\n$/);
  });
});
