import type { IncomingMessage } from 'node:http';
import { Authorizers, type McpModuleOptions } from '../../src/index.js';
import { HTTP_VARIANTS, type HttpTestApp } from '../support/http-app.js';
import {
  bootModernApp,
  ELICIT,
  envelope,
  MODERN,
  modernJson,
  modernMessage,
  postModern,
  readJson,
  README_URI,
  resetFixture,
  SERVER_INFO_KEY,
} from './modern-app.js';

/*
 * Which methods the modern era serves and what its results look like (raw
 * fetch): removed methods and unknown ones are 404 -32601, every result
 * carries resultType and the server's identity, exactly the cacheable
 * methods carry ttlMs and cacheScope (private whenever a result may depend
 * on the caller), and a missing resource is -32602.
 */

const SERVER = { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } };

/** One request of every method the modern era serves, with whether its result is cacheable. */
const EVERY_METHOD: [string, Record<string, unknown>, boolean][] = [
  ['server/discover', {}, true],
  ['tools/list', {}, true],
  ['prompts/list', {}, true],
  ['resources/list', {}, true],
  ['resources/templates/list', {}, true],
  ['resources/read', { uri: README_URI }, true],
  ['tools/call', { name: 'echo', arguments: { text: 'a' } }, false],
  ['prompts/get', { name: 'summary', arguments: { topic: 'x' } }, false],
  [
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'summary' }, argument: { name: 'topic', value: 'al' } },
    false,
  ],
];

describe.each(HTTP_VARIANTS)('modern methods and results (%s)', (variant) => {
  let t: HttpTestApp;

  beforeAll(async () => {
    t = await bootModernApp(variant, { cacheTtlMs: 5000 });
  });
  afterAll(() => t.close());
  beforeEach(() => resetFixture());

  describe('removed, added and unknown methods', () => {
    it.each([
      [
        'initialize',
        { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      ],
      ['ping', {}],
      ['logging/setLevel', { level: 'debug' }],
      ['resources/subscribe', { uri: README_URI }],
      ['resources/unsubscribe', { uri: README_URI }],
    ])('%s, removed in the modern era: HTTP 404 with -32601', async (method, params) => {
      const response = await postModern(t, modernMessage(7, method, params));
      expect(response.status).toBe(404);
      expect(await readJson(response)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32601, message: `Method not found: ${method}` },
      });
    });

    it('an unknown method: HTTP 404 with -32601 naming it', async () => {
      const response = await postModern(t, modernMessage('u-1', 'tools/frobnicate'));
      expect(response.status).toBe(404);
      expect(await readJson(response)).toEqual({
        jsonrpc: '2.0',
        id: 'u-1',
        error: { code: -32601, message: 'Method not found: tools/frobnicate' },
      });
    });

    it('server/discover and subscriptions/listen do not exist in a handshake-era session: -32601', async () => {
      const { sessionId } = await t.initialize();
      for (const [method, params] of [
        ['server/discover', {}],
        ['subscriptions/listen', { notifications: { toolsListChanged: true } }],
      ] as const) {
        const response = await t.post(t.message(method, params, `legacy-${method}`), {
          'mcp-session-id': sessionId,
        });
        expect(response.status).toBe(200);
        expect(await readJson(response)).toEqual({
          jsonrpc: '2.0',
          id: `legacy-${method}`,
          error: { code: -32601, message: `Method not found: ${method}` },
        });
      }
    });

    it.each(['GET', 'DELETE'])(
      '%s naming the 2026-07-28 era (a modern client has no session): 405 with Allow: POST and a JSON-RPC body',
      async (method) => {
        const response = await t.fetch('/mcp', {
          method,
          headers: { accept: 'text/event-stream', 'mcp-protocol-version': MODERN },
        });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(await readJson(response)).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: 'Method Not Allowed: the 2026-07-28 era is POST only',
          },
        });
      },
    );

    it('a notification is accepted with 202 and an empty body', async () => {
      const response = await postModern(t, {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, _meta: envelope() },
      });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    });
  });

  describe('result shapes', () => {
    it.each(EVERY_METHOD)(
      '%s: resultType "complete" and the serverInfo _meta; cache hint only if cacheable',
      async (method, params, cacheable) => {
        const body = await modernJson(t, 1, method, params);
        expect(body.result.resultType).toBe('complete');
        expect(body.result._meta).toEqual(SERVER);
        if (cacheable) {
          expect(body.result).toMatchObject({ ttlMs: 5000, cacheScope: 'private' });
        } else {
          expect(body.result).not.toHaveProperty('ttlMs');
          expect(body.result).not.toHaveProperty('cacheScope');
        }
      },
    );

    it('server/discover: the modern revisions only, the capabilities, and nothing of the handshake', async () => {
      const body = await modernJson(t, 1, 'server/discover');
      expect(body).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {
          supportedVersions: [MODERN],
          capabilities: {
            logging: {},
            tools: { listChanged: true },
            resources: { subscribe: true, listChanged: true },
            prompts: { listChanged: true },
            completions: {},
          },
          resultType: 'complete',
          _meta: SERVER,
          ttlMs: 5000,
          cacheScope: 'private',
        },
      });
    });

    it('an input-required result has resultType "input_required" and no cache hint', async () => {
      const body = await modernJson(t, 2, 'tools/call', { name: 'greet', arguments: {} }, ELICIT);
      expect(Object.keys(body.result).sort()).toEqual([
        'inputRequests',
        'requestState',
        'resultType',
      ]);
      expect(body.result.resultType).toBe('input_required');
    });

    it('a tool-deny result and a tool error result are complete results too', async () => {
      const denied = await modernJson(t, 3, 'tools/call', { name: 'purge', arguments: {} });
      expect(denied.result).toMatchObject({ isError: true, resultType: 'complete', _meta: SERVER });
      const invalid = await modernJson(t, 4, 'tools/call', { name: 'echo', arguments: {} });
      expect(invalid.result).toMatchObject({
        isError: true,
        resultType: 'complete',
        _meta: SERVER,
      });
    });

    it("a handler's own result fields and _meta are kept beside the era's", async () => {
      const body = await modernJson(t, 5, 'resources/read', { uri: README_URI });
      expect(body.result).toEqual({
        contents: [{ uri: README_URI, mimeType: 'text/plain', text: 'read me' }],
        resultType: 'complete',
        _meta: SERVER,
        ttlMs: 5000,
        cacheScope: 'private',
      });
    });
  });

  describe('a missing resource', () => {
    it('is -32602 with data.uri in the modern era (HTTP 200, in-band)', async () => {
      const response = await postModern(
        t,
        modernMessage(8, 'resources/read', { uri: 'modern://nope' }),
      );
      expect(response.status).toBe(200);
      expect(await readJson(response)).toEqual({
        jsonrpc: '2.0',
        id: 8,
        error: { code: -32602, message: 'Resource not found', data: { uri: 'modern://nope' } },
      });
    });

    it('is still -32002 in a handshake-era session on the same endpoint', async () => {
      const { sessionId } = await t.initialize();
      const response = await t.post(t.message('resources/read', { uri: 'modern://nope' }, 9), {
        'mcp-session-id': sessionId,
      });
      expect(await readJson(response)).toEqual({
        jsonrpc: '2.0',
        id: 9,
        error: { code: -32002, message: 'Resource not found', data: { uri: 'modern://nope' } },
      });
    });
  });
});

describe('cacheScope: public only when a result cannot depend on the caller', () => {
  let t: HttpTestApp | undefined;
  afterEach(() => t?.close());

  const anonymous = { authorizer: undefined, readAuthorizer: undefined };
  const cases: [string, 'public' | 'private', Partial<McpModuleOptions>][] = [
    ['no authorizer and no principal', 'public', anonymous],
    ['a read authorizer', 'private', { ...anonymous, readAuthorizer: Authorizers.allowAll() }],
    ['a tool authorizer', 'private', { ...anonymous, authorizer: Authorizers.allowAll() }],
    [
      'an authenticated principal (no authorizer)',
      'private',
      {
        ...anonymous,
        http: {
          authenticate: (req: IncomingMessage) =>
            req.headers['x-user'] === 'alice' ? { subject: 'alice', scopes: [] } : undefined,
        },
      },
    ],
  ];

  it.each(cases)('%s: cacheScope %s on every cacheable result', async (_name, scope, options) => {
    t = await bootModernApp('express', { cacheTtlMs: 250, ...options });
    for (const [method, params] of EVERY_METHOD.filter(([, , cacheable]) => cacheable)) {
      const response = await postModern(t, modernMessage(1, method, params), { 'x-user': 'alice' });
      expect(response.status).toBe(200);
      const { result } = await readJson(response);
      expect([method, result.ttlMs, result.cacheScope]).toEqual([method, 250, scope]);
    }
  });

  it('without cacheTtlMs the hint is ttlMs 0 (immediately stale)', async () => {
    t = await bootModernApp('express', anonymous);
    const body = await modernJson(t, 1, 'tools/list');
    expect([body.result.ttlMs, body.result.cacheScope]).toEqual([0, 'public']);
  });
});
