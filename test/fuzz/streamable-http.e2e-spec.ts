import fc from 'fast-check';
import {
  HTTP_VARIANTS,
  ACCEPT_BOTH,
  createHttpApp,
  type HttpTestApp,
} from '../support/http-app.js';
import { anyMessage, VERSIONS } from '../support/reliability-fuzz.js';
import { isObject, jsonRpcProblems, leaksIn, rawHttp } from '../support/reliability-support.js';
import {
  RUNS,
  counted,
  coverage,
  CHECK_COVERAGE,
  runs,
  FuzzTools,
  APP_OPTIONS,
  Msg,
  useFuzzSuite,
} from './fuzz-app.js';

useFuzzSuite();

describe.each(HTTP_VARIANTS)('fuzz: Streamable HTTP endpoint on %s', (adapter) => {
  let t: HttpTestApp;
  const MAX_BODY = 2048;
  /** What docs/http.md documents for the MCP routes. */
  const DOCUMENTED = new Set([200, 202, 400, 403, 404, 405, 406, 409, 413, 415, 503]);
  /** The statuses this variant answered (the report's `coverage` sums every variant). */
  const reached = new Set<number>();

  beforeAll(async () => {
    t = await createHttpApp(
      { ...APP_OPTIONS, elicitationTimeoutMs: 200, limits: { maxBodyBytes: MAX_BODY } },
      [FuzzTools],
      adapter,
    );
  });
  afterAll(() => t?.close());

  const visible = fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 40,
  });
  const optional = (arb: fc.Arbitrary<string>) => fc.option(arb, { nil: undefined });
  const encoder = new TextEncoder();

  const body = fc.oneof(
    { weight: 3, arbitrary: anyMessage.map((m) => Buffer.from(JSON.stringify(m))) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)) },
    {
      weight: 1,
      arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v))),
    },
    {
      weight: 1,
      arbitrary: fc.array(anyMessage, { maxLength: 3 }).map((b) => Buffer.from(JSON.stringify(b))),
    },
    { weight: 1, arbitrary: fc.constant(Buffer.from(encoder.encode('x'.repeat(MAX_BODY + 1)))) },
    { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  );

  const randomExchange = fc.record({
    method: fc.constantFrom(
      'POST',
      'POST',
      'POST',
      'POST',
      'GET',
      'DELETE',
      'PUT',
      'PATCH',
      'OPTIONS',
    ),
    path: fc.constantFrom('/mcp', '/mcp', '/mcp?x=1', '/messages?sessionId=nope', '/sse'),
    contentType: optional(
      fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'APPLICATION/JSON',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          '',
        ),
        visible,
      ),
    ),
    accept: optional(
      fc.oneof(
        fc.constantFrom(
          ACCEPT_BOTH,
          'application/json',
          'text/event-stream',
          '*/*',
          'text/html',
          '',
        ),
        visible,
      ),
    ),
    version: optional(fc.oneof(fc.constantFrom(...VERSIONS), visible)),
    session: fc.constantFrom('none', 'live', 'deleted', 'random', 'live+x'),
    randomSession: visible,
    origin: optional(fc.constantFrom('http://localhost:5173', 'http://evil.example', 'null')),
    body,
  });
  /** A conforming client's headers around an arbitrary body (so the body reaches the server). */
  const conformingExchange = fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/mcp'),
    contentType: fc.constant('application/json'),
    accept: fc.constant(ACCEPT_BOTH),
    version: optional(fc.constantFrom('2025-11-25', '2025-03-26')),
    session: fc.constantFrom('live', 'live', 'none'),
    randomSession: visible,
    origin: fc.constant(undefined),
    body,
  });
  /** A conforming request with one header (or the method or body) taken from a random one. */
  const nearMissExchange = fc
    .tuple(
      conformingExchange,
      randomExchange,
      fc.constantFrom('method', 'contentType', 'accept', 'version', 'session', 'origin', 'body'),
    )
    .map(([good, bad, key]) => ({ ...good, [key]: bad[key as keyof typeof bad] }));
  const exchange = fc.oneof(randomExchange, conformingExchange, nearMissExchange);

  it('arbitrary bodies and headers: only documented statuses; every 4xx/5xx has a JSON-RPC error body; a fresh initialize works afterwards', async () => {
    const deleted = (await t.initialize()).sessionId;
    await (
      await t.fetch('/mcp', { method: 'DELETE', headers: { 'mcp-session-id': deleted } })
    ).arrayBuffer();

    await fc.assert(
      fc.asyncProperty(
        fc.array(exchange, { minLength: 1, maxLength: 4 }),
        counted(`http on ${adapter}`, async (exchanges) => {
          const live = (await t.initialize()).sessionId;
          // Every session this case opens is ended with it (maxSessions stays out of reach).
          const opened = new Set([live]);
          for (const x of exchanges) {
            const headers: Record<string, string> = {};
            if (x.contentType !== undefined) headers['content-type'] = x.contentType;
            if (x.accept !== undefined) headers.accept = x.accept;
            if (x.version !== undefined) headers['mcp-protocol-version'] = x.version;
            if (x.origin !== undefined) headers.origin = x.origin;
            const session = {
              none: undefined,
              live,
              deleted,
              random: x.randomSession,
              'live+x': `${live}x`,
            }[x.session];
            if (session !== undefined) headers['mcp-session-id'] = session;
            // The SSE pair has one method per route (others are the router's, not MCP's).
            const method =
              x.path === '/sse' ? 'GET' : x.path.startsWith('/messages') ? 'POST' : x.method;
            const sendsBody = !['GET', 'DELETE', 'OPTIONS'].includes(method);
            const answer = await rawHttp(
              t.port,
              method,
              x.path,
              headers,
              sendsBody ? x.body : undefined,
            );
            const text = answer.body.toString('utf8');
            coverage.statuses.add(answer.status);
            reached.add(answer.status);
            const what = `${method} ${x.path} → ${answer.status} ${text.slice(0, 200)}`;
            expect([what, DOCUMENTED.has(answer.status)]).toEqual([what, true]);
            expect(leaksIn(text, x.body.toString('latin1'))).toEqual([]);
            const type = String(answer.headers['content-type'] ?? '');
            if (answer.status >= 400) {
              expect([what, type]).toEqual([what, expect.stringMatching(/^application\/json/)]);
              const error = JSON.parse(text) as Msg;
              expect(jsonRpcProblems(error)).toEqual([]);
              expect(isObject(error.error)).toBe(true);
            } else if (answer.status === 202 || (answer.status === 200 && method === 'DELETE')) {
              expect(text).toBe('');
            } else if (type.startsWith('application/json')) {
              const parsed = JSON.parse(text) as unknown;
              for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
                expect(jsonRpcProblems(m)).toEqual([]);
              }
            } else {
              expect(type).toMatch(/^text\/event-stream/);
            }
            const minted = answer.headers['mcp-session-id'];
            if (typeof minted === 'string') opened.add(minted);
          }
          for (const sessionId of opened) {
            await rawHttp(t.port, 'DELETE', '/mcp', { 'mcp-session-id': sessionId });
          }
        }),
      ),
      { numRuns: RUNS },
    );

    if (CHECK_COVERAGE) {
      // The refusals the endpoint documents were all reached on this variant (not just 400s).
      for (const status of [200, 202, 400, 403, 404, 406, 413, 415]) {
        expect([status, reached.has(status)]).toEqual([status, true]);
      }
    }
    const fresh = await t.initialize();
    expect(fresh.body.result.protocolVersion).toBe('2025-11-25');
    const ping = await t.post(t.message('ping'), { 'mcp-session-id': fresh.sessionId });
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} });
    expect(runs.denied).toBe(0);
  });
});
