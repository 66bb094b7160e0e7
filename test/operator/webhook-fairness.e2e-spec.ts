import type { LoggerService } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { WebhookDelivery } from '../../src/mcp/approvals/webhook/webhook.delivery.js';
import type { HttpTestApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import { authenticateByHeader, modernTransfer } from './modern-callers.js';
import { at } from './operator-app.js';
import { bootWebhookApp, deskOf, notifierOf } from './webhook-app.js';
import { WebhookReceiver } from './webhook-receiver.js';

/*
 * The webhook queue is fair and drops dead notices (issue 24, finding 5),
 * against a real HTTP receiver on 127.0.0.1 that holds every answer until
 * the test lets it go: callers flooding asks wait behind their own notices,
 * not in front of a third caller's, and a notice whose ask was decided or
 * expired while it waited is never sent.
 */

class RecordingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(message: string) {
    this.lines.push(message);
  }
  warn(message: string) {
    this.lines.push(message);
  }
  error(message: string) {
    this.lines.push(message);
  }
}

let receiver: WebhookReceiver;
/** Answers the receiver holds back, oldest first. */
let held: ServerResponse[];

beforeEach(async () => {
  receiver = await WebhookReceiver.start();
  held = [];
  receiver.answer = (_req, res) => held.push(res);
});
afterEach(() => receiver.close());

/** Answers the held requests one at a time, each once the next arrives, until `done()`. */
async function releaseUntil(done: () => boolean, what: string): Promise<void> {
  while (!done()) {
    await until(() => held.length > 0 || done(), what);
    held.shift()?.writeHead(204).end();
  }
}

describe('webhook delivery: fair per caller, no dead notices', () => {
  const deliveries: WebhookDelivery[] = [];
  let logger: RecordingLogger;

  beforeEach(() => {
    logger = new RecordingLogger();
  });
  afterEach(() => {
    for (const delivery of deliveries.splice(0)) delivery.close();
  });

  function delivery(bounds: Partial<ConstructorParameters<typeof WebhookDelivery>[3]> = {}) {
    const made = new WebhookDelivery(
      new URL(receiver.url),
      'fairness secret, long enough',
      logger,
      {
        maxQueued: 64,
        maxQueuedPerCaller: 32,
        concurrency: 1,
        timeoutMs: 10_000,
        backoffMs: [],
        ...bounds,
      },
    );
    deliveries.push(made);
    return made;
  }

  const about = (caller: string, askId: string, expiresAt = Date.now() + 60_000) => ({
    caller,
    askId,
    expiresAt,
  });
  const sentIds = () => receiver.received.map((notice) => JSON.parse(notice.body).id as string);

  it("two callers flooding: a third caller's notice is sent before the flood drains", async () => {
    const sender = delivery();
    for (let n = 1; n <= 20; n++) {
      sender.enqueue(JSON.stringify({ id: `m${n}` }), `ask m${n}`, about('mallory', `m${n}`));
      sender.enqueue(JSON.stringify({ id: `e${n}` }), `ask e${n}`, about('eve', `e${n}`));
    }
    sender.enqueue(JSON.stringify({ id: 'c1' }), 'ask c1', about('carol', 'c1'));
    await releaseUntil(() => sentIds().includes('c1'), "carol's notice");
    // In turn: the one in flight, then one of each caller's.
    expect(sentIds()).toEqual(['m1', 'e1', 'm2', 'c1']);
    // Carol's notice is in flight; the rest of the flood still waits.
    expect(sender.backlog).toBe(38);
    expect(logger.lines).toEqual([]);
  });

  it('a caller past its share is dropped and logged; a full queue gives way to a caller holding fewer', async () => {
    const sender = delivery({ maxQueued: 4, maxQueuedPerCaller: 3 });
    const queued = [1, 2, 3, 4, 5].map((n) =>
      sender.enqueue(JSON.stringify({ id: `m${n}` }), `ask m${n}`, about('mallory', `m${n}`)),
    );
    // One in flight, three queued (her share), the fifth dropped.
    expect(queued).toEqual([true, true, true, true, false]);
    expect(logger.lines).toEqual([expect.stringContaining('notice of ask m5 dropped')]);
    expect(sender.enqueue('{"id":"e1"}', 'ask e1', about('eve', 'e1'))).toBe(true);
    // Four queued now: Carol's notice takes the newest of the caller holding the most.
    expect(sender.enqueue('{"id":"c1"}', 'ask c1', about('carol', 'c1'))).toBe(true);
    expect(logger.lines.at(-1)).toContain('notice of ask m4 dropped for a caller with fewer');
    await releaseUntil(() => sender.backlog === 0, 'the queue drained');
    expect(sentIds()).toEqual(['m1', 'm2', 'e1', 'c1', 'm3']);
  });

  it('a queued notice whose ask was decided is never sent, nor one whose ask expired', async () => {
    const decided = new Set<string>();
    const sender = new WebhookDelivery(
      new URL(receiver.url),
      'fairness secret, long enough',
      logger,
      { maxQueued: 8, maxQueuedPerCaller: 8, concurrency: 1, timeoutMs: 10_000, backoffMs: [] },
      async (askId) => !decided.has(askId),
    );
    deliveries.push(sender);
    const soon = Date.now() + 50;
    sender.enqueue('{"id":"a1"}', 'ask a1', about('alice', 'a1'));
    sender.enqueue('{"id":"a2"}', 'ask a2', about('alice', 'a2'));
    sender.enqueue('{"id":"b1"}', 'ask b1', about('bob', 'b1', soon));
    sender.enqueue('{"id":"b2"}', 'ask b2', about('bob', 'b2'));
    sender.enqueue('{"id":"a3"}', 'ask a3', about('alice', 'a3'));
    await until(() => held.length === 1, 'the first notice in flight');
    // a2 is forgotten as its decision is heard; b2 was decided where no event reached this queue.
    sender.forget('a2');
    decided.add('b2');
    await at(soon);
    await releaseUntil(() => sender.backlog === 0, 'the queue drained');
    expect(sentIds()).toEqual(['a1', 'a3']);
    expect(sender.stale).toBe(3);
    expect(logger.lines).toEqual([]);
  });
});

describe('the approvals webhook app: fair queue, no dead notices', () => {
  let app: HttpTestApp;

  beforeEach(async () => {
    // The app's delivery bounds (test/operator/webhook-app.ts): 16 queued, 2 in flight.
    app = await bootWebhookApp({ url: receiver.url }, 'express', {
      http: { authenticate: authenticateByHeader },
    });
  });
  afterEach(() => app.close());

  const noticeCallers = () => receiver.notices().map((notice) => notice.caller.subject as string);

  it("two callers' floods of asks do not hold back a third caller's notice", async () => {
    for (let n = 1; n <= 8; n++) await modernTransfer(app, 'mallory', { n });
    for (let n = 1; n <= 8; n++) await modernTransfer(app, 'eve', { n });
    await until(() => notifierOf(app.app).counts.heard === 16, 'the flood heard');
    await modernTransfer(app, 'carol');
    await until(() => notifierOf(app.app).counts.heard === 17, "carol's ask heard");
    await releaseUntil(() => notifierOf(app.app).backlog === 0, 'the queue drained');
    const order = noticeCallers();
    const carol = order.indexOf('carol');
    expect(carol).toBeGreaterThanOrEqual(0);
    // Sent while flood notices still waited behind it, not after the last of them.
    expect(order.slice(carol + 1)).toEqual(expect.arrayContaining(['mallory']));
  });

  it('the queued notice of an ask decided before its turn is never sent', async () => {
    await modernTransfer(app, 'mallory', { n: 1 });
    await modernTransfer(app, 'mallory', { n: 2 });
    await until(() => held.length === 2, 'two notices in flight');
    await modernTransfer(app, 'alice');
    await until(() => notifierOf(app.app).counts.claimed === 3, "alice's notice queued");
    const alices = (await deskOf(app.app).pending()).asks.find(
      (a) => a.caller.subject === 'alice',
    )!;
    const operator = { subject: 'bob', issuer: 'urn:test', scopes: ['mcp:approve'] };
    const decision = await deskOf(app.app).decide(alices.id, operator, {
      approve: false,
      reason: 'not today',
      via: 'api',
    });
    expect(decision.ok).toBe(true);
    await releaseUntil(() => notifierOf(app.app).backlog === 0, 'the queue drained');
    expect(noticeCallers()).toEqual(['mallory', 'mallory']);
    expect(notifierOf(app.app).stale).toBe(1);
  });
});
