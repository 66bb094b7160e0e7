import { McpRegistry, McpWarden } from '../../src/index.js';
import { HTTP_VARIANTS, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import {
  bootModernApp,
  modernMessage,
  postModern,
  README_URI,
  resetFixture,
  SERVER_INFO_KEY,
  SUBSCRIPTION_ID_KEY,
} from './modern-app.js';

/*
 * `subscriptions/listen` over Streamable HTTP (raw fetch): the
 * acknowledgement comes first, then only the kinds the stream asked for,
 * each tagged with the subscription id (the listen request's id); closing
 * the stream ends the listener; a shutting-down server cancels the stream
 * and sends its final result.
 */

type Filter = {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
};

const tagged = (id: number | string, method: string, params: object = {}) => ({
  jsonrpc: '2.0',
  method,
  params: { ...params, _meta: { [SUBSCRIPTION_ID_KEY]: id } },
});

const acknowledged = (id: number | string, notifications: Filter) =>
  tagged(id, 'notifications/subscriptions/acknowledged', { notifications });

interface Listening {
  reader: SseReader;
  abort: AbortController;
}

/** Opens a listen stream and waits for its acknowledgement. */
async function listen(
  t: HttpTestApp,
  id: number | string,
  notifications: Filter,
): Promise<Listening> {
  const abort = new AbortController();
  const response = await postModern(
    t,
    modernMessage(id, 'subscriptions/listen', { notifications }),
    {},
    abort,
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(response.headers.get('mcp-session-id')).toBeNull();
  const reader = new SseReader(response);
  await reader.at(0);
  return { reader, abort };
}

describe.each(HTTP_VARIANTS)('subscriptions/listen (%s)', (variant) => {
  let t: HttpTestApp;
  let warden: McpWarden;

  beforeAll(async () => {
    t = await bootModernApp(variant);
    warden = t.app.get(McpWarden);
  });
  afterAll(() => t.close());
  beforeEach(() => resetFixture());

  /** Drops the streams, one at a time, and waits until the server has seen each go. */
  async function drop(...streams: Listening[]): Promise<void> {
    for (const stream of streams) {
      const closed = t.nextSocketClose();
      stream.abort.abort();
      await closed;
    }
  }

  it('the first message is the acknowledgement, tagged with the listen id, of only what was asked (deduplicated)', async () => {
    const filter = {
      toolsListChanged: true,
      promptsListChanged: false,
      resourceSubscriptions: [README_URI, README_URI],
    };
    const stream = await listen(t, 'listen-1', filter);
    expect(stream.reader.messages).toEqual([
      acknowledged('listen-1', { toolsListChanged: true, resourceSubscriptions: [README_URI] }),
    ]);
    await drop(stream);
  });

  it('a numeric listen id is the subscription id as it was sent', async () => {
    const stream = await listen(t, 77, { promptsListChanged: true });
    expect(stream.reader.messages).toEqual([acknowledged(77, { promptsListChanged: true })]);
    await drop(stream);
  });

  it('each stream gets only the kinds it asked for (tools vs prompts), each tagged with its own id', async () => {
    const tools = await listen(t, 'tools', { toolsListChanged: true, resourcesListChanged: true });
    const prompts = await listen(t, 'prompts', {
      promptsListChanged: true,
      resourcesListChanged: true,
    });
    warden.notify('notifications/tools/list_changed');
    warden.notify('notifications/prompts/list_changed');
    // Both asked for this one: once it arrived on both, everything before it has too.
    warden.notify('notifications/resources/list_changed');
    const last = (m: Record<string, unknown>) =>
      m.method === 'notifications/resources/list_changed';
    await tools.reader.waitForMessage(last);
    await prompts.reader.waitForMessage(last);
    expect(tools.reader.messages).toEqual([
      acknowledged('tools', { toolsListChanged: true, resourcesListChanged: true }),
      tagged('tools', 'notifications/tools/list_changed'),
      tagged('tools', 'notifications/resources/list_changed'),
    ]);
    expect(prompts.reader.messages).toEqual([
      acknowledged('prompts', { promptsListChanged: true, resourcesListChanged: true }),
      tagged('prompts', 'notifications/prompts/list_changed'),
      tagged('prompts', 'notifications/resources/list_changed'),
    ]);
    await drop(tools, prompts);
  });

  it('notifications/resources/updated reaches only the streams subscribed to that URI', async () => {
    const readme = await listen(t, 'readme', { resourceSubscriptions: [README_URI] });
    const other = await listen(t, 'other', {
      resourceSubscriptions: ['modern://other'],
      toolsListChanged: true,
    });
    warden.notify('notifications/resources/updated', { uri: 'modern://elsewhere' });
    warden.notify('notifications/resources/updated', { uri: README_URI });
    warden.notify('notifications/tools/list_changed');
    await readme.reader.waitForMessage((m) => m.method === 'notifications/resources/updated');
    await other.reader.waitForMessage((m) => m.method === 'notifications/tools/list_changed');
    expect(readme.reader.messages).toEqual([
      acknowledged('readme', { resourceSubscriptions: [README_URI] }),
      tagged('readme', 'notifications/resources/updated', { uri: README_URI }),
    ]);
    expect(other.reader.messages).toEqual([
      acknowledged('other', { toolsListChanged: true, resourceSubscriptions: ['modern://other'] }),
      tagged('other', 'notifications/tools/list_changed'),
    ]);
    await drop(readme, other);
  });

  it('a tool registered at runtime announces the change on the streams that asked for tools', async () => {
    const stream = await listen(t, 'runtime', { toolsListChanged: true });
    const registry = t.app.get(McpRegistry);
    registry.registerTool({
      name: 'late_tool',
      description: 'Registered after boot',
      inputSchema: { type: 'object' },
      handler: () => 'late',
    });
    try {
      const changed = await stream.reader.waitForMessage(
        (m) => m.method === 'notifications/tools/list_changed',
      );
      expect(changed).toEqual(tagged('runtime', 'notifications/tools/list_changed'));
    } finally {
      registry.unregisterTool('late_tool');
      await drop(stream);
    }
  });

  it('closing the stream ends the listener: nothing stays open and a later notify reaches no one', async () => {
    const stream = await listen(t, 'closing', { toolsListChanged: true });
    expect(warden.stats()).toEqual({ connections: 1, inFlight: 1, pendingClientRequests: 0 });
    const closed = t.nextSocketClose();
    stream.abort.abort();
    await closed;
    expect(warden.stats()).toEqual({ connections: 0, inFlight: 0, pendingClientRequests: 0 });
    expect(() => warden.notify('notifications/tools/list_changed')).not.toThrow();
    expect(await stream.reader.ended).toEqual({ error: expect.anything() });
    expect(stream.reader.messages).toEqual([acknowledged('closing', { toolsListChanged: true })]);
  });
});

describe.each(HTTP_VARIANTS)('subscriptions/listen when the server shuts down (%s)', (variant) => {
  let t: HttpTestApp;

  beforeEach(async () => {
    resetFixture();
    t = await bootModernApp(variant);
  });
  afterEach(() => t.close());

  it('app.close() sends notifications/cancelled for the listen request, then its final result, and completes', async () => {
    const stream = await listen(t, 'bye', { toolsListChanged: true });
    const closing = t.app.close();
    expect(await stream.reader.ended).toEqual({});
    await closing;
    expect(stream.reader.messages).toEqual([
      acknowledged('bye', { toolsListChanged: true }),
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'bye', reason: 'server shutting down' },
      },
      {
        jsonrpc: '2.0',
        id: 'bye',
        result: {
          resultType: 'complete',
          _meta: {
            [SUBSCRIPTION_ID_KEY]: 'bye',
            [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' },
          },
        },
      },
    ]);
  });
});
