import type { LoggerService } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { WEBHOOK_SIGNATURE_HEADER, signWebhookBody } from './webhook-signature.js';

/** The bounds of webhook delivery. */
export interface WebhookDeliveryBounds {
  /** Notices waiting to be sent; past it a new one is dropped (and logged). */
  readonly maxQueued: number;
  /** Notices in flight at once. */
  readonly concurrency: number;
  /** One attempt's deadline, connection to last byte of the answer's head. */
  readonly timeoutMs: number;
  /** Waits before the second, third… attempt; its length + 1 is the number of attempts. */
  readonly backoffMs: readonly number[];
}

export const DEFAULT_DELIVERY_BOUNDS: WebhookDeliveryBounds = {
  maxQueued: 256,
  concurrency: 4,
  timeoutMs: 5_000,
  backoffMs: [500, 2_000],
};

/** One notice to send: its body and what the log may say about it. */
interface Notice {
  readonly body: string;
  readonly label: string;
}

/**
 * Sends notices to the webhook URL, off the call's path: `enqueue` never
 * waits and never throws. Each attempt is signed afresh (its own `t`), has a
 * deadline, and never follows a redirect (the URL was chosen by the operator;
 * a redirect would send signed links somewhere else). A failure is retried on
 * a network error, a timeout, a 429 or a 5xx, a few times with backoff, then
 * logged, naming only the URL's origin: a webhook URL often carries its own
 * secret in its path or query.
 */
export class WebhookDelivery {
  private readonly queue: Notice[] = [];
  private active = 0;
  private readonly closing = new AbortController();
  private readonly target: string;

  constructor(
    private readonly url: URL,
    private readonly secret: string,
    private readonly logger: LoggerService,
    private readonly bounds: WebhookDeliveryBounds = DEFAULT_DELIVERY_BOUNDS,
  ) {
    this.target = url.origin;
  }

  /** Queues a notice; false (and a warning) when the queue is full or delivery has stopped. */
  enqueue(body: string, label: string): boolean {
    if (this.closing.signal.aborted) return false;
    if (this.queue.length >= this.bounds.maxQueued) {
      this.logger.warn(`Webhook queue full (${this.bounds.maxQueued}): notice of ${label} dropped`);
      return false;
    }
    this.queue.push({ body, label });
    this.drain();
    return true;
  }

  /** Notices queued or in flight. */
  get backlog(): number {
    return this.queue.length + this.active;
  }

  /** Stops: queued notices are dropped, attempts in flight and backoff waits are aborted. */
  close(): void {
    this.queue.length = 0;
    this.closing.abort();
  }

  private drain(): void {
    while (this.active < this.bounds.concurrency && this.queue.length > 0) {
      const notice = this.queue.shift()!;
      this.active++;
      void this.send(notice).finally(() => {
        this.active--;
        this.drain();
      });
    }
  }

  private async send(notice: Notice): Promise<void> {
    const attempts = this.bounds.backoffMs.length + 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await this.attempt(notice.body);
      if (outcome === 'sent' || this.closing.signal.aborted) return;
      if (!outcome.retry || attempt === attempts) {
        this.logger.warn(
          `Webhook to ${this.target} failed for ${notice.label}: ${outcome.reason} (attempt ${attempt} of ${attempts})`,
        );
        return;
      }
      try {
        await delay(this.bounds.backoffMs[attempt - 1], undefined, {
          signal: this.closing.signal,
          ref: false,
        });
      } catch {
        return; // closed while waiting
      }
    }
  }

  private async attempt(body: string): Promise<'sent' | { retry: boolean; reason: string }> {
    const signal = AbortSignal.any([
      this.closing.signal,
      AbortSignal.timeout(this.bounds.timeoutMs),
    ]);
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        redirect: 'manual',
        signal,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'mcp-warden-webhook',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(
            this.secret,
            body,
            Math.floor(Date.now() / 1000),
          ),
        },
        body,
      });
      // The answer's body is not read: drop it so the connection is freed.
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) return 'sent';
      const { status } = response;
      if (status >= 300 && status < 400) {
        return { retry: false, reason: `HTTP ${status}, redirect not followed` };
      }
      return { retry: status === 429 || status >= 500, reason: `HTTP ${status}` };
    } catch (error) {
      return { retry: true, reason: failureOf(error) };
    }
  }
}

/* A failure's kind and code, never its message (which may quote the URL). */
function failureOf(error: unknown): string {
  const { name, cause } = (error ?? {}) as { name?: string; cause?: { code?: unknown } };
  if (name === 'TimeoutError') return 'timed out';
  if (name === 'AbortError') return 'aborted';
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return code ? `network error (${code})` : 'network error';
}
