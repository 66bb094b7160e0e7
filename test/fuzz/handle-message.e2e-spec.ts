import fc from 'fast-check';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import {
  anyMessage,
  expectedFor,
  idKey,
  nearMiss,
  notification,
  response,
  toolCall,
  validRequest,
} from '../support/reliability-fuzz.js';
import { jsonRpcProblems, within } from '../support/reliability-support.js';
import {
  RUNS,
  counted,
  coverage,
  CHECK_COVERAGE,
  runs,
  FuzzTools,
  APP_OPTIONS,
  Msg,
  expectWellFormed,
  isResponseMessage,
  ANSWERS,
  Asker,
  useFuzzSuite,
} from './fuzz-app.js';

useFuzzSuite();

describe('fuzz: McpServer.handleMessage', () => {
  let t: McpTestApp;
  let asker: Asker;

  beforeAll(async () => {
    t = await createMcpApp(APP_OPTIONS, [FuzzTools]);
    asker = new Asker(t.server, 'asker');
  });
  afterAll(async () => {
    asker?.stop();
    await t?.close();
  });

  /** The server still answers ping on `connId`. */
  async function expectPing(connId: string): Promise<void> {
    const reply = await t.server.handleMessage(
      { jsonrpc: '2.0', id: 'ping', method: 'ping' },
      connId,
    );
    expect(reply).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
  }

  /** Checks one direct reply against the reference classification. */
  function expectDirectReply(message: unknown, reply: unknown): void {
    const expected = expectedFor(message);
    if (expected.kind === 'silent') {
      expect(reply).toBeNull();
      return;
    }
    expect(reply).not.toBeNull();
    expectWellFormed(reply, message);
    const r = reply as Msg;
    if (expected.kind === 'invalid') {
      expect(r.error?.code).toBe(-32600);
      expect(r.id).toBe(expected.id);
    } else {
      expect(r.id).toBe(expected.id);
    }
  }

  it('arbitrary JSON values: never rejects; -32600 (id null unless readable) or the right reply', async () => {
    const before = { ...runs };
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 4 }),
        counted('jsonValue', async (value) => {
          // A connection that never initialized: batches are not allowed on it.
          const reply = await t.server.handleMessage(value, 'json');
          if (Array.isArray(value)) {
            expect(reply).toEqual({
              jsonrpc: '2.0',
              id: null,
              error: { code: -32600, message: expect.any(String) },
            });
            return;
          }
          expectDirectReply(value, reply);
        }),
      ),
      { numRuns: RUNS * 5 },
    );
    expect(runs).toEqual(before);
    await expectPing('json');
  });

  it('arbitrary JS values (fc.anything): never throws or rejects', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.anything({ maxDepth: 3 }),
        counted('anything', async (value) => {
          const reply = await t.server.handleMessage(value, 'anything');
          if (reply !== null) expect(jsonRpcProblems(reply)).toEqual([]);
        }),
      ),
      { numRuns: RUNS * 2 },
    );
    await expectPing('anything');
  });

  it('near-miss envelopes and real methods with random params: exactly one response per usable request; tools run only when allowed or approved', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom('plain', 'asker', 'asker'),
            fc.oneof(anyMessage, toolCall('guarded_counter'), toolCall('denied_counter')),
          ),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        fc.array(fc.constantFrom(...ANSWERS), { minLength: 1, maxLength: 5 }),
        counted('sequences', async (steps, plan) => {
          await asker.reset(plan);
          const before = { ...runs };
          const parkedBefore = coverage.parked;
          for (const [connId, message] of steps) {
            const from = asker.received.length;
            const input = structuredClone(message);
            const reply = await t.server.handleMessage(message, connId);
            const expected = expectedFor(input);
            if (expected.kind === 'request' && reply === null) {
              // Parked for approval: only the asker connection can be asked; the
              // response comes later on its channel, with the request's id.
              expect(connId).toBe('asker');
              coverage.parked++;
              const parked = await within(
                asker.waitFor((m) => isResponseMessage(m) && m.id === expected.id, from),
                5_000,
                `response to parked ${idKey(expected.id)}`,
              );
              expectWellFormed(parked, input);
            } else {
              expectDirectReply(input, reply);
            }
            // Nothing else answered in this message's window: no stray or duplicate response.
            await expectPing('asker');
            const answered = asker.received.slice(from).filter(isResponseMessage);
            const own = expected.kind === 'request' && reply === null ? 1 : 0;
            expect(answered.map((m) => idKey(m.id))).toEqual(
              own ? [idKey((expected as { id: unknown }).id)] : [],
            );
            for (const m of asker.received.slice(from)) expectWellFormed(m, input);
          }
          // The seam: a deny never runs; an ask runs once per approval, never otherwise.
          expect(runs.denied).toBe(before.denied);
          // (An approval that arrives after the elicitation timeout is rightly ignored, so the
          // server's own approvals, from its audit, are bounded by those the client sent.)
          const approved = asker.audited.filter((e) => e.decision === 'allow').length;
          expect(runs.guarded - before.guarded).toBe(approved);
          expect(approved).toBeLessThanOrEqual(asker.approvals);
          expect(asker.audited.length).toBe(coverage.parked - parkedBefore);
          coverage.approved += approved;
          await expectPing('plain');
        }),
      ),
    );
    if (CHECK_COVERAGE) expect(coverage.approved).toBeGreaterThan(0);
  });

  it('batches on a 2025-03-26 connection: one reply per request and per invalid item, none for the rest', async () => {
    const item = fc.oneof(
      validRequest(),
      nearMiss,
      // Cancellations inside a batch may legitimately silence a sibling: not this property.
      notification.filter((m) => m.method !== 'notifications/cancelled'),
      response,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { minLength: 0, maxLength: 8 }),
        counted('batches', async (batch) => {
          await t.server.handleMessage(
            {
              jsonrpc: '2.0',
              id: 0,
              method: 'initialize',
              params: {
                protocolVersion: '2025-03-26',
                capabilities: {},
                clientInfo: { name: 'fuzz', version: '1' },
              },
            },
            'batch',
          );
          const input = structuredClone(batch);
          const reply = await t.server.handleMessage(batch, 'batch');
          if (input.length === 0) {
            expect((reply as Msg)?.error?.code).toBe(-32600);
            return;
          }
          const want = input
            .map(expectedFor)
            .filter((e) => e.kind !== 'silent')
            .map((e) => idKey((e as { id: unknown }).id))
            .sort();
          if (want.length === 0) {
            expect(reply).toBeNull();
            return;
          }
          expect(Array.isArray(reply)).toBe(true);
          const replies = reply as unknown as Msg[];
          for (const r of replies) expectWellFormed(r, input);
          expect(replies.map((r) => idKey(r.id)).sort()).toEqual(want);
        }),
      ),
    );
    await expectPing('batch');
  });
});
