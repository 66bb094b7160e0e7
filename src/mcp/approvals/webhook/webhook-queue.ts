/** One notice waiting to be sent. */
export interface QueuedWebhookNotice {
  readonly body: string;
  /** What the log may say about it. */
  readonly label: string;
  /** Whose ask it announces (the caller's quota key): its share of the queue. */
  readonly caller: string;
  /** The ask it announces, so it can be forgotten once the ask is decided or expired. */
  readonly askId?: string;
  /** When the ask expires (ms since the epoch): a notice still queued then is worth nothing. */
  readonly expiresAt: number;
}

/** What `add` did: queued (perhaps in place of another caller's newest notice), or refused. */
export type WebhookQueueAdmission =
  | { readonly queued: true; readonly evicted?: QueuedWebhookNotice }
  | { readonly queued: false; readonly reason: 'caller share full' | 'queue full' };

/**
 * The webhook's notices waiting to be sent, one FIFO per caller, served
 * round-robin: a caller who asks a thousand times waits behind its own
 * notices, not in front of everyone else's. Bounded in all and per caller;
 * when full, a caller holding fewer gives way to none, and one holding the
 * most gives up its newest notice to a caller holding fewer.
 */
export class WebhookQueue {
  /* Map order is the round-robin: a caller served goes to the back. */
  private readonly byCaller = new Map<string, QueuedWebhookNotice[]>();
  private count = 0;

  constructor(
    private readonly maxQueued: number,
    private readonly maxPerCaller: number,
  ) {}

  /** Notices queued. */
  get size(): number {
    return this.count;
  }

  add(notice: QueuedWebhookNotice): WebhookQueueAdmission {
    const own = this.byCaller.get(notice.caller) ?? [];
    if (own.length >= this.maxPerCaller) return { queued: false, reason: 'caller share full' };
    let evicted: QueuedWebhookNotice | undefined;
    if (this.count >= this.maxQueued) {
      const longest = this.longest();
      // Only a caller holding more than the newcomer would gives way: shares even out, no churn.
      if (!longest || longest.length <= own.length + 1)
        return { queued: false, reason: 'queue full' };
      evicted = longest.pop()!;
      this.count--;
    }
    own.push(notice);
    this.byCaller.set(notice.caller, own);
    this.count++;
    return evicted ? { queued: true, evicted } : { queued: true };
  }

  /** The next notice, taking callers in turn; undefined when none waits. */
  next(): QueuedWebhookNotice | undefined {
    for (const [caller, own] of this.byCaller) {
      const notice = own.shift()!;
      this.count--;
      this.byCaller.delete(caller);
      if (own.length > 0) this.byCaller.set(caller, own);
      return notice;
    }
    return undefined;
  }

  /** Drops the queued notices of `askId`; how many went. */
  forget(askId: string): number {
    let dropped = 0;
    for (const [caller, own] of this.byCaller) {
      const kept = own.filter((notice) => notice.askId !== askId);
      dropped += own.length - kept.length;
      if (kept.length === 0) this.byCaller.delete(caller);
      else if (kept.length !== own.length) this.byCaller.set(caller, kept);
    }
    this.count -= dropped;
    return dropped;
  }

  clear(): void {
    this.byCaller.clear();
    this.count = 0;
  }

  private longest(): QueuedWebhookNotice[] | undefined {
    let longest: QueuedWebhookNotice[] | undefined;
    for (const own of this.byCaller.values())
      if (own.length > (longest?.length ?? 0)) longest = own;
    return longest;
  }
}
