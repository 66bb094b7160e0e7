import fc from 'fast-check';
import { McpServer } from '../../src/index.js';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ACCEPT_BOTH,
  HTTP_VARIANTS,
  createHttpApp,
  type HttpTestApp,
} from '../support/http-app.js';
import { idKey } from '../support/reliability-fuzz.js';
import {
  isObject,
  jsonRpcProblems,
  leaksIn,
  rawHttp,
  within,
} from '../support/reliability-support.js';
import { RUNS, counted, coverage, FuzzTools, APP_OPTIONS, Msg, useFuzzSuite } from './fuzz-app.js';
import {
  HostileTools,
  LOW_LIMITS,
  StallMeter,
  callMessage,
  dupSends,
  expectToolReply,
  hostileCall,
  hostileEnvelope,
  hostileRuns,
  serialize,
  wellFormed,
  wireOf,
  withOwnIds,
  type DupSend,
  type ToolCall,
} from './hostile-shapes.js';
import { deferred } from '../support/deferred.js';

/*
 * Hostile shapes over Streamable HTTP, on every HTTP variant: hostile
 * tools/call bodies and envelopes (serialized iteratively: a 100 000-level
 * body must not overflow the client either) on a 2025-11-25 and a 2025-03-26
 * session, and concurrent POSTs and batches reusing ids on the 2025-03-26 one.
 * Counts per variant: FUZZ_RUNS bodies, FUZZ_RUNS / 3 repeated-id cases.
 */

useFuzzSuite();

/** One case must be answered within this (a hang is a failure, not a slow pass). */
const CASE_MS = 15_000;
/** Big enough for a 100 000-level tower of arrays (200 KB); smaller than the default to stay cheap. */
const MAX_BODY = 512 * 1024;

const stalls = new StallMeter();
beforeAll(() => stalls.start());
afterAll(() => {
  stalls.stop();
  console.log(`hostile fuzz (HTTP): ${stalls.report()}`);
});

/** What docs/http.md documents for the MCP routes. */
const DOCUMENTED = new Set([200, 202, 400, 403, 404, 405, 406, 409, 413, 415, 503]);

describe.each(HTTP_VARIANTS)('fuzz: hostile bodies over Streamable HTTP on %s', (adapter) => {
  let t: HttpTestApp;
  let session: Record<string, string>;
  let batching: Record<string, string>;

  beforeAll(async () => {
    t = await createHttpApp(
      {
        ...APP_OPTIONS,
        // The per-caller call rate is not under test here: every case is one caller.
        limits: { ...LOW_LIMITS, maxBodyBytes: MAX_BODY, callsPerSecondPerPrincipal: 1e9 },
      },
      [FuzzTools, HostileTools],
      adapter,
    );
    session = { 'mcp-session-id': (await t.initialize()).sessionId };
    batching = { 'mcp-session-id': (await t.initialize('2025-03-26')).sessionId };
  });
  afterAll(() => t?.close());

  /** POSTs `body` with a conforming client's headers; bounded. */
  function post(body: string, headers: Record<string, string>) {
    return within(
      rawHttp(
        t.port,
        'POST',
        '/mcp',
        { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
        Buffer.from(body),
      ),
      CASE_MS,
      'POST',
    );
  }

  const hostileBody = fc.oneof(
    {
      weight: 4,
      arbitrary: hostileCall(LOW_LIMITS).map((call) => ({ call, input: callMessage(call) })),
    },
    { weight: 2, arbitrary: hostileEnvelope.map((input) => ({ call: undefined, input })) },
  );

  it('hostile arguments and envelopes: documented statuses, JSON-RPC bodies, the bound named in an isError, never -32603', async () => {
    const label = `hostile bodies on ${adapter}`;
    await fc.assert(
      fc.asyncProperty(
        hostileBody,
        fc.boolean(),
        counted(label, async ({ call, input }, onBatching) => {
          const body = serialize(input);
          const before = { ...hostileRuns };
          const answer = await stalls.measure(label, () =>
            post(body, onBatching ? batching : session),
          );
          const text = answer.body.toString('utf8');
          coverage.statuses.add(answer.status);
          const what = `${answer.status} ${text.slice(0, 200)}`;
          expect([what, DOCUMENTED.has(answer.status)]).toEqual([what, true]);
          expect(leaksIn(text, body)).toEqual([]);
          if (Buffer.byteLength(body) > MAX_BODY) {
            expect([what, answer.status]).toEqual([what, 413]);
            return;
          }
          if (answer.status === 202) {
            expect(text).toBe('');
            return;
          }
          expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
          const parsed = JSON.parse(text) as unknown;
          if (answer.status >= 400) {
            expect(jsonRpcProblems(parsed)).toEqual([]);
            expect(isObject((parsed as Msg).error)).toBe(true);
            // A well-formed tools/call is never refused at the HTTP level.
            expect([what, call]).toEqual([what, undefined]);
            return;
          }
          for (const m of Array.isArray(parsed) ? parsed : [parsed]) wellFormed(m, input);
          if (call) expectToolReply(parsed, call as ToolCall, LOW_LIMITS, before);
        }),
      ),
      { numRuns: RUNS },
    );
    stalls.endProperty(label);
    const ping = await post('{"jsonrpc":"2.0","id":"p","method":"ping"}', session);
    expect(JSON.parse(ping.body.toString())).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });

  it('concurrent POSTs and batches reusing ids on a 2025-03-26 session: a repeat is 400 -32600, no id gets two results, every request answered once', async () => {
    const label = `repeated ids on ${adapter}`;
    await fc.assert(
      fc.asyncProperty(
        // Batches may carry an initialize: it is -32600 there, and the session stays as it was.
        dupSends(),
        counted(label, async (drawn) => {
          const sends = withOwnIds(drawn);
          HostileTools.gate = deferred<void>();
          const holdsOf = (send: DupSend) =>
            send.items.filter((item) => item.kind === 'hold').length;
          const answered = sends.map(() => false);
          const answers = sends.map((send, index) =>
            post(JSON.stringify(wireOf(send)), batching).finally(() => (answered[index] = true)),
          );
          // Release the held calls once every POST is either answered (refused, or holding
          // nothing) or has all of its held calls in flight.
          await stalls.measure(label, () =>
            within(
              (async () => {
                for (;;) {
                  const pendingHolds = sends.reduce(
                    (sum, send, index) => sum + (answered[index] ? 0 : holdsOf(send)),
                    0,
                  );
                  if (t.app.get(McpServer).stats().inFlight === pendingHolds) return;
                  await sleep(1);
                }
              })(),
              CASE_MS,
              'every POST in',
            ),
          );
          HostileTools.gate.resolve();
          const responses = await within(Promise.all(answers), CASE_MS, 'repeated ids');
          const results = new Map<string, number>();
          const ranHolds = new Set<string>();
          responses.forEach((response, index) => {
            const send = sends[index];
            const text = response.body.toString('utf8');
            const what = `${response.status} ${text.slice(0, 300)} for ${JSON.stringify(send)}`;
            const requests = send.items.filter((item) => item.kind !== 'notification') as {
              kind: string;
              id: string | number;
            }[];
            if (requests.length === 0) {
              expect([what, response.status]).toEqual([what, 202]);
              return;
            }
            if (response.status === 400) {
              const error = JSON.parse(text) as Msg;
              expect(jsonRpcProblems(error)).toEqual([]);
              expect([what, error.error?.code]).toEqual([what, -32600]);
              expect([what, error.error?.message]).toEqual([
                what,
                expect.stringContaining('already in flight'),
              ]);
              return;
            }
            expect([what, response.status]).toEqual([what, 200]);
            const parsed = JSON.parse(text) as Msg | Msg[];
            const list = send.batch ? (parsed as Msg[]) : [parsed as Msg];
            expect([what, Array.isArray(list)]).toEqual([what, true]);
            for (const m of list) expect(jsonRpcProblems(m)).toEqual([]);
            const got = list
              .map((m) => `${idKey(m.id)} ${m.error ? m.error.code : 'result'}`)
              .sort();
            const wanted = requests
              .map((item) => `${idKey(item.id)} ${item.kind === 'initialize' ? -32600 : 'result'}`)
              .sort();
            expect([what, got]).toEqual([what, wanted]);
            for (const m of list) {
              if (m.result) results.set(idKey(m.id), (results.get(idKey(m.id)) ?? 0) + 1);
            }
            for (const item of requests) if (item.kind === 'hold') ranHolds.add(idKey(item.id));
          });
          // No id answered twice with a result: every repeat was refused while the first held.
          for (const [id, count] of results) expect([id, count]).toEqual([id, 1]);
          // A refusal had a reason: a repeat inside the POST, or an id another POST was running.
          responses.forEach((response, index) => {
            if (response.status !== 400) return;
            const keys = sends[index].items
              .filter((item) => item.kind !== 'notification')
              .map((item) => idKey((item as { id: unknown }).id));
            const repeatsItself = new Set(keys).size < keys.length;
            const why = `${JSON.stringify(sends[index])} refused`;
            expect([why, repeatsItself || keys.some((key) => ranHolds.has(key))]).toEqual([
              why,
              true,
            ]);
          });
        }),
      ),
      { numRuns: Math.max(10, Math.ceil(RUNS / 3)) },
    );
    stalls.endProperty(label);
    // Still the 2025-03-26 session it was (no batched initialize reset it): a batch is answered.
    const batch = await post('[{"jsonrpc":"2.0","id":"q","method":"ping"}]', batching);
    expect(JSON.parse(batch.body.toString())).toEqual([{ jsonrpc: '2.0', id: 'q', result: {} }]);
  });
});
