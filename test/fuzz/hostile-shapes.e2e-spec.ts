import fc from 'fast-check';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { expectedFor, idKey } from '../support/reliability-fuzz.js';
import { deferred } from '../support/deferred.js';
import { within } from '../support/reliability-support.js';
import { RUNS, counted, runs, FuzzTools, APP_OPTIONS, Msg, useFuzzSuite } from './fuzz-app.js';
import {
  DEFAULT_SHAPE_LIMITS,
  HostileTools,
  LOW_LIMITS,
  StallMeter,
  callMessage as message,
  dupSends,
  expectToolReply,
  expectedParamsRefusal,
  hostileCall,
  hostileEnvelope,
  hostileRuns,
  nest,
  wellFormed,
  wide,
  wireOf,
  withOwnIds,
  type ToolCall as Call,
} from './hostile-shapes.js';

/*
 * Hostile shapes in process (McpServer.handleMessage): arguments wide, deep
 * (up to 100 000 levels), long and mixed, around lowered bounds and around the
 * defaults; random envelopes around them; concurrent calls and 2025-03-26
 * batches reusing ids. Every case is bounded in time; the longest case is
 * reported, not judged. Counts: FUZZ_RUNS × 5 + FUZZ_RUNS / 5 + 4 fixed calls,
 * FUZZ_RUNS × 2 envelopes, FUZZ_RUNS repeated-id cases.
 */

useFuzzSuite();

/** One case must be answered within this (a hang is a failure, not a slow pass). */
const CASE_MS = 15_000;

/** The stalls, by property: printed at the end, never judged (the bench judges timing). */
const stalls = new StallMeter();
beforeAll(() => stalls.start());
afterAll(() => {
  stalls.stop();
  console.log(`hostile fuzz (in process): ${stalls.report()}`);
});

describe('fuzz: hostile argument shapes, in process', () => {
  let low: McpTestApp;
  let defaults: McpTestApp;

  beforeAll(async () => {
    low = await createMcpApp({ ...APP_OPTIONS, limits: LOW_LIMITS }, [FuzzTools, HostileTools]);
    defaults = await createMcpApp(APP_OPTIONS, [FuzzTools, HostileTools]);
    await low.initialize('shapes');
    await defaults.initialize('shapes');
  });
  afterAll(async () => {
    await low?.close();
    await defaults?.close();
  });

  it('wide, deep, long and mixed arguments around lowered bounds: an isError naming the bound past it, the tool’s own answer within', async () => {
    const deniedBefore = runs.denied;
    await fc.assert(
      fc.asyncProperty(
        hostileCall(LOW_LIMITS),
        counted('hostile shapes (low bounds)', async (call) => {
          const before = { ...hostileRuns };
          const reply = await stalls.measure('shapes (low bounds)', () =>
            within(low.server.handleMessage(message(call), 'shapes'), CASE_MS, call.name),
          );
          expectToolReply(reply, call, LOW_LIMITS, before);
        }),
      ),
      { numRuns: RUNS * 5 },
    );
    stalls.endProperty('shapes (low bounds)');
    expect(runs.denied).toBe(deniedBefore);
  });

  it('around the default bounds (10 000 keys, 32 levels, 10 000 items) and 100 000 levels: the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileCall(DEFAULT_SHAPE_LIMITS),
        counted('hostile shapes (default bounds)', async (call) => {
          const before = { ...hostileRuns };
          const reply = await stalls.measure('shapes (default bounds)', () =>
            within(defaults.server.handleMessage(message(call), 'shapes'), CASE_MS, call.name),
          );
          expectToolReply(reply, call, DEFAULT_SHAPE_LIMITS, before);
        }),
      ),
      { numRuns: Math.max(10, Math.ceil(RUNS / 5)) },
    );
    stalls.endProperty('shapes (default bounds)');
  });

  it('150 000 keys to the DTO tool and 100 000 levels: refused by the bound, never -32603', async () => {
    const calls: Call[] = [
      { id: 'wide', name: 'dto_echo', arguments: { text: 't', ...wide(150_000) } },
      { id: 'deep', name: 'any_object', arguments: { a: nest(100_000, 'object', 1) } },
      { id: 'deep-array', name: 'echo', arguments: { text: 't', a: nest(100_000, 'array', 1) } },
      { id: 'long', name: 'echo', arguments: { text: 't', list: Array(100_000).fill(0) } },
    ];
    for (const call of calls) {
      const before = { ...hostileRuns };
      const reply = await stalls.measure('fixed hostile calls', () =>
        within(defaults.server.handleMessage(message(call), 'shapes'), CASE_MS, String(call.id)),
      );
      expectToolReply(reply, call, DEFAULT_SHAPE_LIMITS, before);
    }
    stalls.endProperty('fixed hostile calls');
  });

  it('random envelopes around hostile payloads: never rejects, well formed, never -32603; one reply per usable request', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileEnvelope,
        counted('hostile envelopes', async (input) => {
          // The 2025-11-25 connection refuses batches: an array is one -32600.
          const reply = await stalls.measure('envelopes', () =>
            within(low.server.handleMessage(input, 'shapes'), CASE_MS, 'envelope'),
          );
          if (Array.isArray(input)) {
            expect((reply as Msg)?.error?.code).toBe(-32600);
            return;
          }
          const expected = expectedFor(input);
          if (expected.kind === 'silent') {
            expect(reply).toBeNull();
          } else {
            expect(reply).not.toBeNull();
            wellFormed(reply, input);
            const r = reply as Msg;
            expect(r.id).toEqual(expected.id);
            if (expected.kind === 'invalid') expect(r.error?.code).toBe(-32600);
            // Params past a bound, to any other method: -32602 naming the bound.
            const refusals = expectedParamsRefusal(input, LOW_LIMITS);
            if (refusals) {
              const prefix = `Invalid params for ${(input as Msg).method}: `;
              expect(r.error?.code).toBe(-32602);
              expect(String(r.error?.message).startsWith(prefix)).toBe(true);
              expect(refusals).toContain(String(r.error.message).slice(prefix.length));
            }
          }
        }),
      ),
      { numRuns: RUNS * 2 },
    );
    stalls.endProperty('envelopes');
    expect(
      await low.server.handleMessage({ jsonrpc: '2.0', id: 'ping', method: 'ping' }, 'shapes'),
    ).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
  });
});

describe('fuzz: repeated ids on a 2025-03-26 connection, in process', () => {
  let t: McpTestApp;
  const CONN = 'dup';

  beforeAll(async () => {
    t = await createMcpApp(APP_OPTIONS, [FuzzTools, HostileTools]);
    await t.initialize(CONN, {}, '2025-03-26');
  });
  afterAll(() => t?.close());

  it('concurrent calls and batches reusing ids: the first in flight runs, every repeat is -32600 with its id, no id gets two results, a batch never initializes', async () => {
    await fc.assert(
      fc.asyncProperty(
        dupSends(),
        counted('repeated ids (in process)', async (drawn) => {
          const sends = withOwnIds(drawn);
          HostileTools.gate = deferred<void>();
          // Reference: in dispatch order, the first held call of an id runs, its repeats are refused.
          const running = new Set<string>();
          const expected = sends.map((send) =>
            send.items.map((item) => {
              if (item.kind === 'notification') return undefined;
              if (item.kind === 'ping') return 'result';
              if (item.kind === 'initialize') return -32600;
              const key = idKey(item.id);
              if (running.has(key)) return -32600;
              running.add(key);
              return 'result';
            }),
          );
          const answers = sends.map((send) => t.server.handleMessage(wireOf(send), CONN));
          // Every message is dispatched: the held calls are in flight, the repeats already refused.
          await new Promise(setImmediate);
          expect(t.server.stats().inFlight).toBe(running.size);
          HostileTools.gate.resolve();
          const replies = await within(Promise.all(answers), CASE_MS, 'repeated ids');
          const results = new Map<string, number>();
          replies.forEach((reply, index) => {
            const send = sends[index];
            const list = (send.batch ? reply : reply === null ? [] : [reply]) as Msg[] | null;
            const want = send.items
              .map((item, at) => ({ item, outcome: expected[index][at] }))
              .filter(({ outcome }) => outcome !== undefined);
            if (want.length === 0) {
              expect(reply).toBeNull();
              return;
            }
            expect(Array.isArray(list)).toBe(true);
            for (const r of list!) wellFormed(r, send);
            // One reply per request, in any order, each with its outcome.
            const got = list!
              .map((r) => `${idKey(r.id)} ${r.error ? r.error.code : 'result'}`)
              .sort();
            const wanted = want
              .map(({ item, outcome }) => `${idKey((item as { id: unknown }).id)} ${outcome}`)
              .sort();
            expect(got).toEqual(wanted);
            for (const r of list!) {
              if (r.result) results.set(idKey(r.id), (results.get(idKey(r.id)) ?? 0) + 1);
            }
          });
          for (const [id, count] of results) expect([id, count]).toEqual([id, 1]);
          expect(t.server.stats().inFlight).toBe(0);
        }),
      ),
      { numRuns: RUNS },
    );
    // Still the 2025-03-26 connection it was: a batch is still answered.
    expect(
      await t.server.handleMessage([{ jsonrpc: '2.0', id: 'q', method: 'ping' }], CONN),
    ).toEqual([{ jsonrpc: '2.0', id: 'q', result: {} }]);
  });
});
