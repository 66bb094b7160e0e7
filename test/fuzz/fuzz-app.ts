import { jest } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import fc from 'fast-check';
import type { Subscription } from 'rxjs';
import {
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpServer,
  McpTool,
  type Authorizer,
  type McpAuditEvent,
} from '../../src/index.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { INTERNAL_SECRET, jsonRpcProblems, leaksIn } from '../support/reliability-support.js';

/*
 * Property-based fuzzing of the three ways bytes get in: McpServer.handleMessage
 * (decoded JSON values and near-miss JSON-RPC envelopes), the stdio transport
 * (arbitrary bytes, mutated lines, oversized lines) and the Streamable HTTP
 * endpoint (arbitrary bodies and headers). Seeded and bounded: FUZZ_RUNS
 * (default 100) scales every property, FUZZ_SEED picks the seed. On demand:
 *   FUZZ_RUNS=5000 NODE_OPTIONS='--experimental-vm-modules --no-warnings' npx jest test/fuzz
 */

export const RUNS = Math.max(1, Number(process.env.FUZZ_RUNS ?? 100));
export const SEED = Number(process.env.FUZZ_SEED ?? 20_260_611);
fc.configureGlobal({ seed: SEED, numRuns: RUNS });

/** Cases run per property, printed at the end (the figure the suite reports). */
export const casesRun: Record<string, number> = {};
export function counted<T extends unknown[]>(name: string, check: (...args: T) => Promise<void>) {
  casesRun[name] = 0;
  return async (...args: T) => {
    casesRun[name]++;
    await check(...args);
  };
}

/** What the runs exercised, so a property that never reached its interesting path fails. */
export const coverage = { parked: 0, approved: 0, hugeLines: 0, statuses: new Set<number>() };
/** Below this many runs the coverage floors are not meaningful. */
export const CHECK_COVERAGE = RUNS >= 50;
/**
 * Called at the top of each fuzz spec: the suite's timeout and its closing
 * report of the cases run (each spec file has its own copy of these figures).
 */
export function useFuzzSuite(): void {
  // Generous: each property is bounded by RUNS; a case is fast unless it waits an elicitation timeout.
  jest.setTimeout(120_000 + RUNS * 400);
  afterAll(() => {
    const statuses = [...coverage.statuses].sort();
    console.log(
      `fuzz cases run (seed ${SEED}): ${JSON.stringify(casesRun)}; parked ${coverage.parked}, ` +
        `approved ${coverage.approved}, oversized lines ${coverage.hugeLines}, HTTP statuses ${statuses}`,
    );
  });
}

/** Tool runs, by tool: the seam must keep `denied_counter` at 0 and `guarded_counter` at approvals. */
export const runs = { guarded: 0, denied: 0 };

@Injectable()
export class FuzzTools {
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

export const toolPolicy: Authorizer = (name) => {
  if (name === 'guarded_counter') return { kind: 'ask', prompt: 'Run the guarded counter?' };
  if (name === 'denied_counter') return { kind: 'deny', reason: 'not_for_you' };
  if (name === 'authz_throws') throw new Error(`${INTERNAL_SECRET} authorizer`);
  return { kind: 'allow' };
};

export const readPolicy: Authorizer = (method, args) => {
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

export const APP_OPTIONS = {
  authorizer: toolPolicy,
  authorizerSource: 'configured' as const,
  readAuthorizer: readPolicy,
  elicitationTimeoutMs: 40,
};

export type Msg = Record<string, any>;

/** Asserts the invariants every message the server sends must hold. */
export function expectWellFormed(message: unknown, input: unknown): void {
  expect(jsonRpcProblems(message)).toEqual([]);
  expect(leaksIn(JSON.stringify(message), JSON.stringify(input) ?? '')).toEqual([]);
}

export const isResponseMessage = (m: Msg) =>
  m.method === undefined && ('result' in m || 'error' in m);

/** How the auto-responder answers an elicitation (never approves unless told to). */
export const ANSWERS = [
  'decline',
  'approve',
  'cancel',
  'silence',
  'refuse',
  'error',
  'malformed',
] as const;
export type Answer = (typeof ANSWERS)[number];

export function answerTo(id: string, answer: Answer): Msg | undefined {
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
export class Asker {
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
