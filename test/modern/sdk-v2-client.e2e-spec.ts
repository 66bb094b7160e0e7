import {
  Client,
  StreamableHTTPClientTransport,
  type VersionNegotiationMode,
} from '@modelcontextprotocol/client';
import { HTTP_VARIANTS, type HttpTestApp } from '../support/http-app.js';
import {
  approvalQuestion,
  bootModernApp,
  denial,
  MODERN,
  PURGE_PROMPT,
  README_URI,
  resetFixture,
  runs,
  SERVER_INFO_KEY,
  tamper,
} from './modern-app.js';
import { sdkAnswers, type SdkAnswers } from './sdk-v2-support.js';

/*
 * The official SDK v2 client (@modelcontextprotocol/client 2.4) over
 * Streamable HTTP: pinned to 2026-07-28, in auto mode (which era it picks
 * against this dual-era server), and in its default legacy mode.
 */

const SERVER = { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } };

describe.each(HTTP_VARIANTS)('SDK v2 client over Streamable HTTP (%s)', (variant) => {
  let t: HttpTestApp;
  let client: Client;
  let answers: SdkAnswers;
  /** The JSON-RPC method of every POST the client made, in order, and the session ids it sent. */
  const sent: { method: string; session: string | null }[] = [];

  const recordingFetch: typeof fetch = async (input, init) => {
    const body =
      typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    const headers = new Headers(init?.headers);
    if (init?.method === 'POST' && body.method) {
      sent.push({ method: body.method, session: headers.get('mcp-session-id') });
    }
    return fetch(input, init);
  };

  async function connect(mode?: VersionNegotiationMode): Promise<Client> {
    client = new Client(
      { name: 'sdk-v2', version: '2.4.0' },
      {
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
        ...(mode === undefined ? {} : { versionNegotiation: { mode } }),
      },
    );
    answers = sdkAnswers(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(t.url), { fetch: recordingFetch }),
    );
    return client;
  }

  beforeAll(async () => {
    t = await bootModernApp(variant);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    resetFixture();
    sent.length = 0;
  });
  afterEach(() => client?.close());

  describe('pinned to 2026-07-28', () => {
    beforeEach(() => connect({ pin: MODERN }));

    it('negotiates the modern era through server/discover, with no initialize and no session', async () => {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(client.getServerVersion()).toEqual({ name: 'http-test', version: '1.0.0' });
      expect(client.getDiscoverResult()).toMatchObject({ supportedVersions: [MODERN] });
      await client.listTools();
      expect(sent).toEqual([
        { method: 'server/discover', session: null },
        { method: 'tools/list', session: null },
      ]);
    });

    it('lists tools, calls one, reads a resource, gets a prompt and completes an argument', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual([
        'echo',
        'purge',
        'wipe',
        'greet',
        'survey',
        'draft',
        'roots',
        'chatty',
        'progressive',
        'hold',
        'route',
      ]);
      expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
        _meta: SERVER,
        content: [{ type: 'text', text: 'echo: hi' }],
      });
      expect(await client.readResource({ uri: README_URI })).toEqual({
        _meta: SERVER,
        contents: [{ uri: README_URI, mimeType: 'text/plain', text: 'read me' }],
        ttlMs: 0,
        cacheScope: 'private',
      });
      expect(await client.getPrompt({ name: 'summary', arguments: { topic: 'x' } })).toEqual({
        _meta: SERVER,
        description: 'Summarise a topic',
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarise x' } }],
      });
      const completion = await client.complete({
        ref: { type: 'ref/prompt', name: 'summary' },
        argument: { name: 'topic', value: 'al' },
      });
      expect(completion).toEqual({
        _meta: SERVER,
        completion: { values: ['alpha', 'alpine'], total: 2, hasMore: false },
      });
    });

    it('mirrors an x-mcp-header argument, which the server checks and accepts', async () => {
      await client.listTools();
      const result = await client.callTool({
        name: 'route',
        arguments: { region: 'eu', count: 3 },
      });
      expect(result.content).toEqual([{ type: 'text', text: 'region eu x3' }]);
    });

    it('approval accepted: the client answers the approval question and the tool runs once', async () => {
      answers.elicit = { action: 'accept', content: { approve: true } };
      const result = await client.callTool({ name: 'purge', arguments: { scope: 'all' } });
      expect(result).toEqual({ _meta: SERVER, content: [{ type: 'text', text: 'purged all' }] });
      expect(answers.asked).toEqual([
        { method: 'elicitation/create', params: approvalQuestion('purge', PURGE_PROMPT).params },
      ]);
      expect(runs.purge).toBe(1);
      expect(sent.map((request) => request.method)).toEqual([
        'server/discover',
        'tools/call',
        'tools/call',
      ]);
    });

    it('approval declined: the deny result with detail "user declined", the tool never runs', async () => {
      answers.elicit = { action: 'decline' };
      const result = await client.callTool({ name: 'purge', arguments: {} });
      expect(result).toEqual({ _meta: SERVER, ...denial('purge', 'ask', 'user declined') });
      expect(runs.purge).toBe(0);
    });

    it('a tampered requestState (manual round through client.request): deny "approval state invalid"', async () => {
      const first = await client.request(
        { method: 'tools/call', params: { name: 'purge', arguments: {} } },
        { allowInputRequired: true },
      );
      expect(first).toEqual({
        resultType: 'input_required',
        inputRequests: { approval: approvalQuestion('purge', PURGE_PROMPT) },
        requestState: expect.any(String),
      });
      const state = (first as unknown as { requestState: string }).requestState;
      const retry = await client.request({
        method: 'tools/call',
        params: {
          name: 'purge',
          arguments: {},
          inputResponses: { approval: { action: 'accept', content: { approve: true } } },
          requestState: tamper(state),
        },
      });
      expect(retry).toEqual({ _meta: SERVER, ...denial('purge', 'ask', 'approval state invalid') });
      expect(runs.purge).toBe(0);
      expect(answers.asked).toEqual([]);
    });

    it("a handler's ctx.elicit, ctx.sample and ctx.listRoots are answered by the client's handlers", async () => {
      answers.elicit = { action: 'accept', content: { name: 'Ann' } };
      expect((await client.callTool({ name: 'greet', arguments: {} })).content).toEqual([
        { type: 'text', text: 'hello Ann' },
      ]);
      expect((await client.callTool({ name: 'draft', arguments: {} })).content).toEqual([
        { type: 'text', text: 'draft: a model wrote this' },
      ]);
      expect((await client.callTool({ name: 'roots', arguments: {} })).content).toEqual([
        { type: 'text', text: 'roots: file:///projects/a, file:///projects/b' },
      ]);
      expect(answers.asked.map((request) => request.method)).toEqual([
        'elicitation/create',
        'sampling/createMessage',
        'roots/list',
      ]);
    });
  });

  describe('auto mode', () => {
    it('picks the modern era against this dual-era server (server/discover first, no initialize)', async () => {
      await connect('auto');
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      answers.elicit = { action: 'accept', content: { approve: true } };
      expect((await client.callTool({ name: 'purge', arguments: {} })).content).toEqual([
        { type: 'text', text: 'purged' },
      ]);
      expect(sent).toEqual([
        { method: 'server/discover', session: null },
        { method: 'tools/call', session: null },
        { method: 'tools/call', session: null },
      ]);
    });
  });

  describe('default (legacy) mode', () => {
    it('still gets the handshake era on the same endpoint: initialize, then a session', async () => {
      await connect();
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      answers.elicit = { action: 'accept', content: { approve: true } };
      const result = await client.callTool({ name: 'purge', arguments: {} });
      expect(result).toEqual({ content: [{ type: 'text', text: 'purged' }] });
      expect(sent[0]).toEqual({ method: 'initialize', session: null });
      expect(sent.slice(1).every((request) => typeof request.session === 'string')).toBe(true);
    });
  });
});
