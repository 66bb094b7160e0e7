import type { LoggerService } from '@nestjs/common';
import { WebhookDelivery } from '../../src/mcp/approvals/webhook/webhook.delivery.js';
import { verifyWebhookSignature } from '../../src/mcp/approvals/webhook/webhook-signature.js';
import { until } from '../support/until.js';
import { WebhookReceiver } from './webhook-receiver.js';

/*
 * Delivery against a real HTTP receiver: signed, retried on a server error,
 * never redirected, bounded in time and in queue, and its failures logged
 * without the URL's secret parts.
 */

const SECRET = 'delivery test secret, long enough';

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

describe('webhook delivery', () => {
  let receiver: WebhookReceiver;
  let logger: RecordingLogger;
  const deliveries: WebhookDelivery[] = [];

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
    logger = new RecordingLogger();
  });
  afterEach(async () => {
    for (const delivery of deliveries.splice(0)) delivery.close();
    await receiver.close();
  });

  function delivery(
    bounds: Partial<ConstructorParameters<typeof WebhookDelivery>[3]> = {},
    url = receiver.url + '?token=receiver-secret',
  ): WebhookDelivery {
    const made = new WebhookDelivery(new URL(url), SECRET, logger, {
      maxQueued: 8,
      concurrency: 2,
      timeoutMs: 2_000,
      backoffMs: [1, 1],
      ...bounds,
    });
    deliveries.push(made);
    return made;
  }

  it('POSTs the body as JSON with a signature the helper verifies', async () => {
    const sender = delivery();
    expect(sender.enqueue('{"hello":"world"}', 'ask 1')).toBe(true);
    await until(() => receiver.received.length === 1 && sender.backlog === 0, 'the notice');
    const [notice] = receiver.received;
    expect(notice!.headers['content-type']).toBe('application/json');
    expect(notice!.body).toBe('{"hello":"world"}');
    expect(
      verifyWebhookSignature({
        secret: SECRET,
        header: notice!.headers['warden-signature'],
        body: notice!.body,
      }),
    ).toBe(true);
    expect(logger.lines).toEqual([]);
  });

  it('retries a 5xx with backoff, a bounded number of times, then logs without the URL secret', async () => {
    receiver.answer = (_req, res) => res.writeHead(503).end();
    const sender = delivery();
    sender.enqueue('{}', 'ask 2');
    await until(() => sender.backlog === 0 && logger.lines.length === 1, 'the give-up');
    expect(receiver.received).toHaveLength(3);
    expect(logger.lines[0]).toContain('HTTP 503 (attempt 3 of 3)');
    expect(logger.lines[0]).toContain('ask 2');
    expect(logger.lines[0]).not.toContain('receiver-secret');
    expect(logger.lines[0]).not.toContain('/hooks/approvals');
  });

  it('succeeds on a retry after a server error', async () => {
    receiver.answer = (_req, res, n) => res.writeHead(n === 1 ? 500 : 200).end();
    const sender = delivery();
    sender.enqueue('{}', 'ask 3');
    await until(() => sender.backlog === 0, 'the delivery');
    expect(receiver.received).toHaveLength(2);
    expect(logger.lines).toEqual([]);
  });

  it('never follows a redirect, and does not retry one', async () => {
    receiver.answer = (_req, res) =>
      res.writeHead(307, { location: receiver.url.replace('/hooks/', '/elsewhere/') }).end();
    const sender = delivery();
    sender.enqueue('{}', 'ask 4');
    await until(() => sender.backlog === 0 && logger.lines.length === 1, 'the refusal');
    expect(receiver.received.map((r) => r.path)).toEqual([
      '/hooks/approvals?token=receiver-secret',
    ]);
    expect(logger.lines[0]).toContain('redirect not followed');
  });

  it('does not retry a 4xx refusal', async () => {
    receiver.answer = (_req, res) => res.writeHead(401).end();
    const sender = delivery();
    sender.enqueue('{}', 'ask 5');
    await until(() => sender.backlog === 0 && logger.lines.length === 1, 'the refusal');
    expect(receiver.received).toHaveLength(1);
    expect(logger.lines[0]).toContain('HTTP 401 (attempt 1 of 3)');
  });

  it('gives up on a receiver that never answers, at the deadline', async () => {
    receiver.answer = () => undefined; // holds every request open
    const sender = delivery({ timeoutMs: 100, backoffMs: [] });
    sender.enqueue('{}', 'ask 6');
    await until(() => sender.backlog === 0 && logger.lines.length === 1, 'the timeout');
    expect(logger.lines[0]).toContain('timed out (attempt 1 of 1)');
  });

  it('logs a refused connection by its code', async () => {
    const closed = await WebhookReceiver.start();
    const url = closed.url;
    await closed.close();
    const sender = delivery({ backoffMs: [] }, url);
    sender.enqueue('{}', 'ask 7');
    await until(() => sender.backlog === 0 && logger.lines.length === 1, 'the failure');
    expect(logger.lines[0]).toContain('network error (ECONNREFUSED)');
  });

  it('bounds its queue: past it a notice is dropped and logged', async () => {
    receiver.answer = () => undefined;
    // Notices with no subject are all one caller's: its share is the whole queue here.
    const sender = delivery({
      maxQueued: 2,
      maxQueuedPerCaller: 2,
      concurrency: 1,
      timeoutMs: 10_000,
    });
    const accepted = [1, 2, 3, 4].map((n) => sender.enqueue('{}', `ask q${n}`));
    // One in flight, two queued, the fourth dropped.
    expect(accepted).toEqual([true, true, true, false]);
    expect(logger.lines).toEqual([expect.stringContaining('notice of ask q4 dropped')]);
    sender.close();
    expect(sender.enqueue('{}', 'after close')).toBe(false);
  });
});
