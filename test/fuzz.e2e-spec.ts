import { jest } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import type { Subscription } from 'rxjs';
import {
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpServer,
  McpStdioTransport,
  McpTool,
  type Authorizer,
  type McpAuditEvent,
} from '../src/index.js';
import { ACCEPT_BOTH, createHttpApp, type HttpTestApp } from './support/http-app.js';
import { createMcpApp, type McpTestApp } from './support/mcp-test-app.js';
import {
  anyMessage,
  expectedFor,
  idKey,
  nearMiss,
  notification,
  response,
  toolCall,
  validRequest,
  VERSIONS,
} from './support/reliability-fuzz.js';
import {
  INTERNAL_SECRET,
  deferred,
  isObject,
  jsonRpcProblems,
  leaksIn,
  rawHttp,
  within,
  type Deferred,
} from './support/reliability-support.js';

/*
 * Property-based fuzzing of the three ways bytes get in: McpServer.handleMessage
 * (decoded JSON values and near-miss JSON-RPC envelopes), the stdio transport
 * (arbitrary bytes, mutated lines, oversized lines) and the Streamable HTTP
 * endpoint (arbitrary bodies and headers). Seeded and bounded: FUZZ_RUNS
 * (default 100) scales every property, FUZZ_SEED picks the seed. On demand:
 *   FUZZ_RUNS=5000 NODE_OPTIONS='--experimental-vm-modules --no-warnings' npx jest test/fuzz
 */

const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 100));
const SEED = Number(process.env.FUZZ_SEED ?? 20_260_611);
fc.configureGlobal({ seed: SEED, numRuns: RUNS });

/** Cases run per property, printed at the end (the figure the suite reports). */
const casesRun: Record<string, number> = {};
function counted<T extends unknown[]>(name: string, check: (...args: T) => Promise<void>) {
  casesRun[name] = 0;
  return async (...args: T) => {
    casesRun[name]++;
    await check(...args);
  };
}

/** What the runs exercised, so a property that never reached its interesting path fails. */
const coverage = { parked: 0, approved: 0, hugeLines: 0, statuses: new Set<number>() };
/** Below this many runs the coverage floors are not meaningful. */
const CHECK_COVERAGE = RUNS >= 50;

afterAll(() => {
  const statuses = [...coverage.statuses].sort();
  console.log(
    `fuzz cases run (seed ${SEED}): ${JSON.stringify(casesRun)}; parked ${coverage.parked}, ` +
      `approved ${coverage.approved}, oversized lines ${coverage.hugeLines}, HTTP statuses ${statuses}`,
  );
});

// Generous: each property is bounded by RUNS; a case is fast unless it waits an elicitation timeout.
jest.setTimeout(120_000 + RUNS * 400);

/** Tool runs, by tool: the seam must keep `denied_counter` at 0 and `guarded_counter` at approvals. */
const runs = { guarded: 0, denied: 0 };

@Injectable()
class FuzzTools {
  @McpTool({
    name: 'guarded_counter',
    description: 'Counts its runs (ask)',
    input: { type: 'object' },
  })
  guarded() {
    runs.guarded++;
    return `guarded ran ${runs.guarded}`;
  }

  @McpTool({
    name: 'denied_counter',
    description: 'Counts its runs (deny)',
    input: { type: 'object' },
    annotations: { destructiveHint: true },
  })
  denied() {
    runs.denied++;
    return 'denied ran';
  }

  @McpTool({
    description: 'Echo',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return text;
  }

  @McpTool({ description: 'Always throws internal text', input: { type: 'object' } })
  explode(): never {
    throw new Error(`${INTERNAL_SECRET} at Object.<anonymous> (/srv/node_modules/x/y.js:1:2)`);
  }

  @McpResource({ uri: 'fuzz://doc', mimeType: 'text/plain' })
  doc() {
    return 'a document';
  }

  @McpResource({ uri: 'fuzz://broken' })
  broken(): never {
    throw new Error(`${INTERNAL_SECRET} resource`);
  }

  @McpResource({ uri: 'fuzz://secret/plans' })
  plans() {
    return `${INTERNAL_SECRET} plans`;
  }

  @McpResourceTemplate({ uriTemplate: 'fuzz://item/{id}', complete: { id: 'completeId' } })
  item(_uri: string, { id }: Record<string, string>) {
    return `item ${id}`;
  }

  completeId(prefix: string) {
    return ['1', '2', '10'].filter((id) => id.startsWith(prefix));
  }

  @McpPrompt({
    name: 'greet',
    description: 'Greets',
    arguments: [{ name: 'who', required: true, complete: 'completeWho' }],
  })
  greet({ who }: Record<string, string>) {
    return [{ role: 'user', content: { type: 'text', text: `Hello ${who}` } }];
  }

  completeWho(prefix: string) {
    return ['alice', 'bob'].filter((name) => name.startsWith(prefix));
  }

  @McpPrompt({ name: 'broken_prompt', description: 'Throws' })
  brokenPrompt(): never {
    throw new Error(`${INTERNAL_SECRET} prompt`);
  }

  @McpPrompt({ name: 'asked_prompt', description: 'Its read asks (so it denies)' })
  askedPrompt() {
    return [{ role: 'user', content: { type: 'text', text: 'asked' } }];
  }
}

const toolPolicy: Authorizer = (name) => {
  if (name === 'guarded_counter') return { kind: 'ask', prompt: 'Run the guarded counter?' };
  if (name === 'denied_counter') return { kind: 'deny', reason: 'not_for_you' };
  if (name === 'authz_throws') throw new Error(`${INTERNAL_SECRET} authorizer`);
  return { kind: 'allow' };
};

const readPolicy: Authorizer = (method, args) => {
  const uri = typeof args.uri === 'string' ? args.uri : '';
  if (uri.startsWith('fuzz://secret')) return { kind: 'deny', reason: 'secret' };
  if (method === 'prompts/get' && args.name === 'asked_prompt') {
    // The prompt of an ask on a read must appear nowhere in the response.
    return { kind: 'ask', prompt: `${INTERNAL_SECRET} read prompt` };
  }
  const ref = args.ref as { name?: unknown } | undefined;
  if (ref?.name === 'authz_throws') throw new Error(`${INTERNAL_SECRET} read authorizer`);
  return { kind: 'allow' };
};

const APP_OPTIONS = {
  authorizer: toolPolicy,
  authorizerSource: 'configured' as const,
  readAuthorizer: readPolicy,
  elicitationTimeoutMs: 40,
};

type Msg = Record<string, any>;

/** Asserts the invariants every message the server sends must hold. */
function expectWellFormed(message: unknown, input: unknown): void {
  expect(jsonRpcProblems(message)).toEqual([]);
  expect(leaksIn(JSON.stringify(message), JSON.stringify(input) ?? '')).toEqual([]);
}

const isResponseMessage = (m: Msg) => m.method === undefined && ('result' in m || 'error' in m);

/** How the auto-responder answers an elicitation (never approves unless told to). */
const ANSWERS = [
  'decline',
  'approve',
  'cancel',
  'silence',
  'refuse',
  'error',
  'malformed',
] as const;
type Answer = (typeof ANSWERS)[number];

function answerTo(id: string, answer: Answer): Msg | undefined {
  switch (answer) {
    case 'approve':
      return { jsonrpc: '2.0', id, result: { action: 'accept', content: { approve: true } } };
    case 'refuse':
      return { jsonrpc: '2.0', id, result: { action: 'accept', content: { approve: false } } };
    case 'decline':
    case 'cancel':
      return { jsonrpc: '2.0', id, result: { action: answer } };
    case 'error':
      return { jsonrpc: '2.0', id, error: { code: -1, message: 'no' } };
    case 'malformed':
      return { jsonrpc: '2.0', id, result: 'yes' };
    case 'silence':
      return undefined;
  }
}

/**
 * A connection that declared elicitation and drains its channel: it answers
 * each elicitation from `plan` (cyclically), counts the approvals it sent and records the
 * server's elicitation outcomes.
 */
class Asker {
  readonly received: Msg[] = [];
  /** The server's elicitation outcomes on this connection (one per parked call). */
  readonly audited: McpAuditEvent[] = [];
  approvals = 0;
  private plan: Answer[] = ['decline'];
  private next = 0;
  private waiters: { test: (m: Msg) => boolean; done: Deferred<Msg> }[] = [];
  private subscription?: Subscription;

  constructor(
    private readonly server: McpServer,
    readonly connId: string,
  ) {
    server.audit$.subscribe((event) => {
      if (event.connId === connId && event.seam === 'elicitation') this.audited.push(event);
    });
  }

  /** Starts the connection afresh (drops all earlier state) and initializes it. */
  async reset(plan: Answer[]): Promise<void> {
    this.subscription?.unsubscribe();
    this.received.length = 0;
    this.audited.length = 0;
    this.approvals = 0;
    this.plan = plan;
    this.next = 0;
    this.subscription = this.server.subscribe(this.connId).subscribe((m) => this.onMessage(m));
    await this.server.handleMessage(
      {
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { elicitation: {} },
          clientInfo: { name: 'fuzz', version: '1' },
        },
      },
      this.connId,
    );
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }

  /** The first message at index `from` or later that satisfies `test`. */
  waitFor(test: (m: Msg) => boolean, from: number): Promise<Msg> {
    const found = this.received.slice(from).find(test);
    if (found) return Promise.resolve(found);
    const done = deferred<Msg>();
    this.waiters.push({ test, done });
    return done.promise;
  }

  private onMessage(message: object): void {
    const m = message as Msg;
    this.received.push(m);
    this.waiters = this.waiters.filter((w) => (w.test(m) ? (w.done.resolve(m), false) : true));
    if (m.method !== 'elicitation/create') return;
    const answer = this.plan[this.next++ % this.plan.length];
    const reply = answerTo(m.id, answer);
    if (!reply) return;
    if (answer === 'approve') this.approvals++;
    // Answer a moment later, as a client would (not from inside the server's send).
    setImmediate(() => void this.server.handleMessage(reply, this.connId));
  }
}

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

describe('fuzz: stdio transport', () => {
  let t: McpTestApp;
  let connection = 0;

  beforeAll(async () => {
    t = await createMcpApp(APP_OPTIONS, [FuzzTools]);
  });
  afterAll(() => t?.close());

  const MAX_LINE = 512;
  const encoder = new TextEncoder();

  type Segment = { kind: 'bytes' | 'huge'; b: Uint8Array } | { kind: 'valid'; m: Msg };
  const bytesOf = (b: Uint8Array): Segment => ({ kind: 'bytes', b });

  /** One segment of stdin; every segment ends with a newline. */
  const segment: fc.Arbitrary<Segment> = fc.oneof(
    // Arbitrary bytes (newlines inside split them into more lines).
    { weight: 3, arbitrary: fc.uint8Array({ maxLength: 120 }).map(bytesOf) },
    // A mutated valid line: a byte flipped, truncated, or a near-miss envelope.
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          validRequest(['ping', 'tools/list', 'tools/call', 'resources/read']),
          fc.nat(),
          fc.nat(255),
        )
        .map(([message, at, byte]) => {
          const line = encoder.encode(JSON.stringify(message));
          const mutated = Uint8Array.from(line);
          mutated[at % line.length] = byte;
          return bytesOf(at % 2 ? mutated : line.subarray(0, at % line.length));
        }),
    },
    {
      weight: 2,
      arbitrary: nearMiss.map((m) => bytesOf(encoder.encode(JSON.stringify(m)))),
    },
    // A line longer than maxLineBytes (valid JSON, or not).
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: MAX_LINE + 1, max: 3 * MAX_LINE }), fc.boolean())
        .map(([size, json]) => {
          const text = json
            ? JSON.stringify({
                jsonrpc: '2.0',
                id: 'huge',
                method: 'ping',
                params: { pad: 'x'.repeat(size) },
              })
            : 'y'.repeat(size);
          return { kind: 'huge' as const, b: encoder.encode(text) };
        }),
    },
    // A valid request that must be answered exactly once.
    {
      weight: 2,
      arbitrary: validRequest(
        ['ping', 'tools/list', 'tools/call', 'resources/read', 'prompts/get'],
        fc.constant('v'),
      ).map((m) => ({ kind: 'valid' as const, m })),
    },
  );

  it('arbitrary bytes, mutated lines and oversized lines: every output line is valid JSON-RPC; valid requests answered once; ping answers afterwards', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 10 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 6 }),
        counted('stdio', async (segments, chunkSizes) => {
          const connId = `stdio-${connection++}`;
          const input = new PassThrough();
          const output = new PassThrough();
          const lines: string[] = [];
          let pending = '';
          const pingAnswered = deferred<void>();
          output.setEncoding('utf8');
          output.on('data', (chunk: string) => {
            pending += chunk;
            let newline: number;
            while ((newline = pending.indexOf('\n')) !== -1) {
              const line = pending.slice(0, newline);
              pending = pending.slice(newline + 1);
              lines.push(line);
              if (line.includes('"id":"final-ping"')) pingAnswered.resolve();
            }
          });
          const transport = new McpStdioTransport(t.server, {
            input,
            output,
            connId,
            maxLineBytes: MAX_LINE,
          });
          const served = transport.run();

          // Valid requests get unique ids, so each answer can be counted.
          const valid: { id: string; fits: boolean }[] = [];
          const parts: Uint8Array[] = [];
          for (const s of segments) {
            if (s.kind === 'valid') {
              const id = `v-${valid.length}`;
              const line = encoder.encode(JSON.stringify({ ...s.m, id }));
              valid.push({ id, fits: line.length <= MAX_LINE });
              parts.push(line);
            } else parts.push(s.b);
            parts.push(encoder.encode('\n'));
          }
          const bytes = Buffer.concat(parts);
          // Lines over the bound (whatever segment they came from) are refused, never parsed.
          const lineLengths = bytes
            .toString('latin1')
            .split('\n')
            .map((line) => line.length);
          const huge = lineLengths.filter((length) => length > MAX_LINE).length;
          // Written in chunks of arbitrary sizes: lines are split anywhere.
          for (let at = 0, i = 0; at < bytes.length; i++) {
            const size = chunkSizes[i % chunkSizes.length];
            input.write(bytes.subarray(at, at + size));
            at += size;
          }
          input.write('{"jsonrpc":"2.0","id":"final-ping","method":"ping"}\n');
          await within(pingAnswered.promise, 10_000, 'ping after the fuzzed input');
          input.end();
          await served;

          const parsed = lines.map((line) => JSON.parse(line) as Msg);
          for (const message of parsed) expectWellFormed(message, bytes.toString('latin1'));
          for (const { id, fits } of valid) {
            const answers = parsed.filter((m) => isResponseMessage(m) && m.id === id);
            expect([id, answers.length]).toEqual([id, fits ? 1 : 0]);
          }
          const tooLarge = parsed.filter(
            (m) => m.id === null && m.error?.code === -32600 && /too large/.test(m.error.message),
          );
          expect(tooLarge).toHaveLength(huge);
          coverage.hugeLines += huge;
          expect(parsed.filter((m) => m.id === 'final-ping')).toEqual([
            { jsonrpc: '2.0', id: 'final-ping', result: {} },
          ]);
        }),
      ),
    );
    expect(runs.denied).toBe(0);
    if (CHECK_COVERAGE) expect(coverage.hugeLines).toBeGreaterThan(0);
  });
});

describe('fuzz: Streamable HTTP endpoint', () => {
  let t: HttpTestApp;
  const MAX_BODY = 2048;
  /** What the README and DESIGN.md §4 document for the MCP routes. */
  const DOCUMENTED = new Set([200, 202, 400, 403, 404, 405, 406, 409, 413, 415, 503]);

  beforeAll(async () => {
    t = await createHttpApp(
      { ...APP_OPTIONS, elicitationTimeoutMs: 200, limits: { maxBodyBytes: MAX_BODY } },
      [FuzzTools],
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
        counted('http', async (exchanges) => {
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
            // The legacy pair has one method per route (others are the router's, not MCP's).
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
      // The refusals the endpoint documents were all reached (not just 400s).
      for (const status of [200, 202, 400, 403, 404, 406, 413, 415]) {
        expect([status, coverage.statuses.has(status)]).toEqual([status, true]);
      }
    }
    const fresh = await t.initialize();
    expect(fresh.body.result.protocolVersion).toBe('2025-11-25');
    const ping = await t.post(t.message('ping'), { 'mcp-session-id': fresh.sessionId });
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: expect.any(Number), result: {} });
    expect(runs.denied).toBe(0);
  });
});
