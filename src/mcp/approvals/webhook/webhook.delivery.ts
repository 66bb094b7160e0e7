import type { LoggerService } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { WEBHOOK_SIGNATURE_HEADER, signWebhookBody } from './webhook-signature.js';
import { WebhookQueue, type QueuedWebhookNotice } from './webhook-queue.js';

/** The bounds of webhook delivery. */
export interface WebhookDeliveryBounds {
  /** Notices waiting to be sent; past it a new one is dropped (and logged). */
  readonly maxQueued: number;
  /**
   * Notices one caller may have waiting, so a caller asking in a loop cannot
   * hold the queue others need. Default: an eighth of `maxQueued`.
   */
  readonly maxQueuedPerCaller?: number;
  /** Notices in flight at once. */
  readonly concurrency: number;
  /** One attempt's deadline, connection to last byte of the answer's head. */
  readonly timeoutMs: number;
  /** Waits before the second, third… attempt; its length + 1 is the number of attempts. */
  readonly backoffMs: readonly number[];
}

/** The delivery bounds in force unless a test provides others. */
export const DEFAULT_DELIVERY_BOUNDS: WebhookDeliveryBounds = {
  maxQueued: 256,
  maxQueuedPerCaller: 32,
  concurrency: 4,
  timeoutMs: 5_000,
  backoffMs: [500, 2_000],
};

/** What a notice is about: whose ask, which one, until when. */
export interface WebhookNoticeSubject {
  /** The caller's quota key: notices are sent taking callers in turn. */
  readonly caller: string;
  readonly askId: string;
  readonly expiresAt: number;
}

/**
 * Whether the ask of a notice about to be sent (or retried) still waits for
 * a decision; a notice for a decided or expired ask is dropped unsent.
 */
export type WebhookNoticeWanted = (askId: string) => Promise<boolean>;

/**
 * Sends notices to the webhook URL, off the call's path: `enqueue` never
 * waits and never throws. Each attempt is signed afresh (its own `t`), has a
 * deadline, and never follows a redirect (the URL was chosen by the operator;
 * a redirect would send signed links somewhere else). A failure is retried on
 * a network error, a timeout, a 429 or a 5xx, a few times with backoff, then
 * logged, naming only the URL's origin: a webhook URL often carries its own
 * secret in its path or query.
 *
 * The queue is fair: notices are sent taking callers in turn, each caller
 * has a share of the queue (`maxQueuedPerCaller`), and a notice whose ask
 * was decided or expired is dropped rather than sent late (`forget`, and a
 * check before each attempt).
 */
export class WebhookDelivery {
  private readonly queue: WebhookQueue;
  private active = 0;
  private readonly closing = new AbortController();
  private readonly target: string;
  private dropped = 0;

  constructor(
    private readonly url: URL,
    private readonly secret: string,
    private readonly logger: LoggerService,
    private readonly bounds: WebhookDeliveryBounds = DEFAULT_DELIVERY_BOUNDS,
    private readonly wanted: WebhookNoticeWanted = async () => true,
  ) {
    this.target = url.origin;
    const perCaller = bounds.maxQueuedPerCaller ?? Math.ceil(bounds.maxQueued / 8);
    this.queue = new WebhookQueue(bounds.maxQueued, Math.max(1, perCaller));
  }

  /**
   * Queues a notice; false (and a warning) when the queue or the caller's
   * share is full or delivery has stopped. Notices without `subject` count
   * as one caller's and never go stale.
   */
  enqueue(body: string, label: string, subject?: WebhookNoticeSubject): boolean {
    if (this.closing.signal.aborted) return false;
    const admission = this.queue.add({
      body,
      label,
      caller: subject?.caller ?? '',
      askId: subject?.askId,
      expiresAt: subject?.expiresAt ?? Infinity,
    });
    if (!admission.queued) {
      const bound =
        admission.reason === 'queue full'
          ? `Webhook queue full (${this.bounds.maxQueued})`
          : "Webhook queue: the caller's share is full";
      this.logger.warn(`${bound}: notice of ${label} dropped`);
      return false;
    }
    if (admission.evicted) {
      this.logger.warn(
        `Webhook queue full (${this.bounds.maxQueued}): notice of ${admission.evicted.label} dropped for a caller with fewer`,
      );
    }
    this.drain();
    return true;
  }

  /** Drops the queued notice of an ask that was decided or expired (an attempt in flight ends at its check). */
  forget(askId: string): void {
    this.dropped += this.queue.forget(askId);
  }

  /** Notices dropped unsent because their ask no longer waited (for tests and health checks). */
  get stale(): number {
    return this.dropped;
  }

  /** Notices queued or in flight. */
  get backlog(): number {
    return this.queue.size + this.active;
  }

  /** Stops: queued notices are dropped, attempts in flight and backoff waits are aborted. */
  close(): void {
    this.queue.clear();
    this.closing.abort();
  }

  private drain(): void {
    while (this.active < this.bounds.concurrency) {
      const notice = this.queue.next();
      if (!notice) return;
      if (notice.expiresAt <= Date.now()) {
        this.dropped++;
        continue;
      }
      this.active++;
      void this.send(notice).finally(() => {
        this.active--;
        this.drain();
      });
    }
  }

  private async send(notice: QueuedWebhookNotice): Promise<void> {
    const attempts = this.bounds.backoffMs.length + 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (!(await this.stillWanted(notice))) {
        this.dropped++;
        return;
      }
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

  /**
   * Whether the notice's ask still waits. When the desk cannot tell (Redis
   * away), the notice is sent: a late notice costs nothing, its links answer
   * "already decided".
   */
  private async stillWanted(notice: QueuedWebhookNotice): Promise<boolean> {
    if (notice.expiresAt <= Date.now()) return false;
    if (notice.askId === undefined) return true;
    return this.wanted(notice.askId).catch(() => true);
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
