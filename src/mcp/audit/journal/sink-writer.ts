import type { McpAuditEntry, McpAuditSink } from '../audit-sink.interface.js';

/** What a writer tells the journal. */
export interface SinkWriterEvents {
  /**
   * Called as a write begins: the journal chains what it holds into every queue, so records
   * numbered since the end of the last turn (a call resumed by the last write) join this one.
   */
  sealing?(): void;
  /** Every record up to `seq` is kept by this sink; `count` of them in this write. */
  kept(seq: number, count: number): void;
  /** A batch up to `seq` failed; it will be retried. */
  failed(seq: number, error: Error): void;
  /** A write has not ended in time: the sink is failing until it does (nothing is retried yet). */
  stalled?(error: Error): void;
  /** `count` records were dropped: the sink fell `maxPending` behind. */
  dropped(count: number): void;
}

const MAX_BATCH = 1_000;
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

/**
 * One sink's queue. Records leave in chain order, a batch at a time: what queued while a write
 * was in flight goes in the next one (group commit). A failed batch is retried, with backoff,
 * before anything after it, so the sink's chain has no hole unless the queue overflowed.
 * The queue is bounded: past `maxPending` new records are dropped and counted.
 */
export class SinkWriter {
  private queue: McpAuditEntry[] = [];
  private writing = false;
  private scheduled = false;
  private retryMs = 0;
  private retryTimer?: NodeJS.Timeout;
  private windowTimer?: NodeJS.Timeout;
  private closing?: () => void;
  /** Set once the sink is open: records queue until then. */
  private started = false;
  /** False from a failed write until the next one succeeds. */
  healthy = true;
  keptSeq = 0;

  /** When the last write began (performance.now()). */
  private lastWriteAt = -Infinity;
  /** Checked after each write: see `keptTo`. */
  private readonly keptWatchers = new Set<() => void>();

  constructor(
    readonly sink: McpAuditSink,
    private readonly maxPending: number,
    /** How long a batch may gather (0: the next turn of the loop). */
    private readonly windowMs: number,
    private readonly events: SinkWriterEvents,
    /** The shortest time between the starts of two writes (the sink's `minWriteIntervalMs`). */
    private readonly minIntervalMs = 0,
    /**
     * How long a write may take before the sink is taken for failing (0: never). A write that
     * never settles (a database connection gone silent, no reset) would otherwise hold the sink
     * healthy while nothing is kept, and every call under failClosed wait out its own timeout.
     */
    private readonly stallMs = 0,
  ) {}

  /** Queues `entry`; `wake()` has it written. */
  enqueue(entry: McpAuditEntry): boolean {
    if (this.queue.length >= this.maxPending) {
      this.events.dropped(1);
      return false;
    }
    this.queue.push(entry);
    return true;
  }

  /** Whether `more` records would still fit in the queue. */
  hasRoom(more: number): boolean {
    return this.queue.length + more < this.maxPending;
  }

  /**
   * Has what is queued written: at the next turn of the loop (or when the interval allows), or
   * with `now` at once, for a caller already at the end of a turn. A write in flight or a retry
   * waiting takes the queue when it is done.
   */
  wake(now = false): void {
    if (this.started && !this.writing && !this.scheduled && !this.retryTimer) this.schedule(now);
  }

  /** The sink is open: writes may begin. */
  start(): void {
    this.started = true;
    if (this.queue.length > 0 && !this.scheduled) this.schedule();
  }

  get pending(): number {
    return this.queue.length;
  }

  /**
   * Resolves once every record up to `seq` is kept, or nothing is left to write, or the sink is
   * failing, or after `timeoutMs`: what the shutdown waits for before its final checkpoint,
   * while new records may still come (a queue that never empties under load). A batch waiting
   * out its window is written now, and the timer keeps the process alive meanwhile: the window's
   * own does not, and a stdio server whose input has ended would otherwise exit mid-shutdown,
   * its records unwritten (exit code 13, a top-level await never settled).
   */
  keptTo(seq: number, timeoutMs: number): Promise<void> {
    const done = () =>
      !this.started ||
      this.keptSeq >= seq ||
      !this.healthy ||
      (!this.writing && this.queue.length === 0);
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.keptWatchers.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.keptWatchers.add(check);
      this.writeWaiting();
    });
  }

  /**
   * Resolves once the queue is empty, or after `timeoutMs` (a sink that stays down). Its timer
   * keeps the process alive, as `keptTo`'s does: a sink's own wait may not (a worker thread).
   */
  drain(timeoutMs: number): Promise<void> {
    if ((this.queue.length === 0 && !this.writing) || !this.started) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.closing = () => {
        clearTimeout(timer);
        resolve();
      };
      // Whatever waits for a timer is written now, and so is what nothing is set to write (a
      // batch that failed during an earlier drain).
      if (!this.writeWaiting() && !this.writing && !this.scheduled) void this.flush();
    });
  }

  /* A batch waiting for a timer (its window, a retry's backoff) is written now; true if one was. */
  private writeWaiting(): boolean {
    const waiting = this.retryTimer ?? this.windowTimer;
    if (!waiting) return false;
    clearTimeout(waiting);
    this.retryTimer = this.windowTimer = undefined;
    void this.flush();
    return true;
  }

  /*
   * By default at the next turn of the loop: for a file, a batch that waited longer outlived the
   * young generation and cost more in garbage collection than its fewer fsyncs saved (bench:
   * throughput-http-audit). A sink whose writes hold the loop (SQLite) asks for a window.
   * Batches also grow while a write is in flight, and under load a sink's
   * `minWriteIntervalMs` spaces its writes: each of a file's is a flush to disk, whose CPU
   * (in the kernel and the thread pool) outweighed everything else a record costs.
   */
  private schedule(now = false): void {
    this.scheduled = true;
    const spacing = this.lastWriteAt + this.minIntervalMs - performance.now();
    const wait = Math.max(this.windowMs, spacing);
    if (wait <= 0 && now) void this.flush();
    else if (wait <= 0) setImmediate(() => void this.flush());
    else {
      this.windowTimer = setTimeout(() => this.afterWait(), wait);
      this.windowTimer.unref();
    }
  }

  /*
   * A timer counts from the event loop's cached clock, which can run a little behind
   * performance.now() on a busy loop, so it may fire before the spacing is over: the rest is
   * waited for, so two writes never start closer than the interval.
   */
  private afterWait(): void {
    const left = this.lastWriteAt + this.minIntervalMs - performance.now();
    if (left > 0) {
      this.windowTimer = setTimeout(() => this.afterWait(), Math.ceil(left));
      this.windowTimer.unref();
      return;
    }
    this.windowTimer = undefined;
    void this.flush();
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    if (this.writing) return this.settled();
    // Writing already, so the seal's wake-up passes this writer by.
    this.writing = true;
    this.events.sealing?.();
    if (this.queue.length === 0) {
      this.writing = false;
      return this.settled();
    }
    this.lastWriteAt = performance.now();
    const batch = this.queue.slice(0, MAX_BATCH);
    const last = batch[batch.length - 1]!.seq;
    const stall = this.stallMs > 0 ? setTimeout(() => this.stalled(), this.stallMs) : undefined;
    stall?.unref();
    try {
      await this.sink.write(batch);
      clearTimeout(stall);
      this.queue.splice(0, batch.length);
      this.healthy = true;
      this.retryMs = 0;
      this.keptSeq = last;
      this.events.kept(last, batch.length);
      this.watched();
    } catch (error) {
      clearTimeout(stall);
      this.healthy = false;
      this.events.failed(last, error as Error);
      this.watched();
      this.retryMs = Math.min(LAST_RETRY_MS, Math.max(FIRST_RETRY_MS, this.retryMs * 2));
      this.writing = false;
      if (this.closing) return this.settled();
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        void this.flush();
      }, this.retryMs);
      this.retryTimer.unref();
      return;
    }
    this.writing = false;
    if (this.queue.length > 0) {
      // At shutdown (closing), at once; otherwise as any other batch.
      if (this.closing) return this.flush();
      if (!this.scheduled) this.schedule();
      return;
    }
    this.settled();
  }

  /*
   * A write past its time: failing until it settles. The write is left to end (a second one
   * beside it could write its records twice, or out of order); every call waiting on this sink
   * is refused now, as is each new one, until a write succeeds.
   */
  private stalled(): void {
    this.healthy = false;
    this.events.stalled?.(new Error(`a write has not ended in ${this.stallMs} ms`));
    this.watched();
  }

  private settled(): void {
    this.watched();
    if (this.queue.length === 0 || !this.healthy) this.closing?.();
  }

  /* Tells whoever waits in `keptTo` that a write ended. */
  private watched(): void {
    for (const check of this.keptWatchers) check();
  }
}
