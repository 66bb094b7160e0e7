import { WebhookQueue, type QueuedWebhookNotice } from './webhook-queue.js';

const notice = (caller: string, askId: string): QueuedWebhookNotice => ({
  body: '{}',
  label: `ask ${askId}`,
  caller,
  askId,
  expiresAt: Infinity,
});

function drain(queue: WebhookQueue): string[] {
  const order: string[] = [];
  for (let next = queue.next(); next; next = queue.next()) order.push(next.askId!);
  return order;
}

describe('WebhookQueue', () => {
  it('takes callers in turn, each in its own order', () => {
    const queue = new WebhookQueue(16, 8);
    for (const id of ['m1', 'm2', 'm3']) queue.add(notice('mallory', id));
    for (const id of ['e1', 'e2']) queue.add(notice('eve', id));
    queue.add(notice('carol', 'c1'));
    expect(queue.size).toBe(6);
    expect(drain(queue)).toEqual(['m1', 'e1', 'c1', 'm2', 'e2', 'm3']);
    expect(queue.size).toBe(0);
  });

  it('refuses a caller past its share, and only that caller', () => {
    const queue = new WebhookQueue(16, 2);
    expect(queue.add(notice('mallory', 'm1')).queued).toBe(true);
    expect(queue.add(notice('mallory', 'm2')).queued).toBe(true);
    expect(queue.add(notice('mallory', 'm3'))).toEqual({
      queued: false,
      reason: 'caller share full',
    });
    expect(queue.add(notice('alice', 'a1')).queued).toBe(true);
  });

  it('when full, the caller holding the most gives its newest notice to one holding fewer', () => {
    const queue = new WebhookQueue(4, 4);
    for (const id of ['m1', 'm2', 'm3', 'm4']) queue.add(notice('mallory', id));
    expect(queue.add(notice('carol', 'c1'))).toEqual({
      queued: true,
      evicted: expect.objectContaining({ askId: 'm4' }),
    });
    queue.add(notice('carol', 'c2'));
    // Two each: even shares, so a full queue now refuses rather than churns.
    expect(queue.add(notice('carol', 'c3'))).toEqual({ queued: false, reason: 'queue full' });
    expect(drain(queue)).toEqual(['m1', 'c1', 'm2', 'c2']);
  });

  it('forgets the notices of an ask', () => {
    const queue = new WebhookQueue(16, 8);
    queue.add(notice('mallory', 'm1'));
    queue.add(notice('alice', 'a1'));
    queue.add(notice('alice', 'a2'));
    expect(queue.forget('a1')).toBe(1);
    expect(queue.forget('nope')).toBe(0);
    expect(queue.size).toBe(2);
    expect(drain(queue)).toEqual(['m1', 'a2']);
  });
});
