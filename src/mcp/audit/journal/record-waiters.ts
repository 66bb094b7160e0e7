interface Waiter {
  readonly seq: number;
  readonly deadline: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * The calls that wait for their decision record under `failClosed` (docs/audit.md), in chain
 * order: each is let go once every sink kept its record, refused when a write fails, and
 * refused after `waitMs` whatever happens, so no call waits on a sink forever.
 */
export class RecordWaiters {
  private waiters: Waiter[] = [];
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly waitMs: number) {}

  get size(): number {
    return this.waiters.length;
  }

  /** Resolves once `seq` is kept by every sink. */
  wait(seq: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ seq, deadline: performance.now() + this.waitMs, resolve, reject });
      this.sweeper ??= setInterval(() => this.sweep(), 100);
    });
  }

  /** Every sink keeps the chain up to `seq`. */
  keptUpTo(seq: number): void {
    let index = 0;
    while (index < this.waiters.length && this.waiters[index]!.seq <= seq) {
      this.waiters[index]!.resolve();
      index += 1;
    }
    if (index > 0) this.waiters = this.waiters.slice(index);
  }

  /** Refuses the waiters up to `seq` (Infinity: all of them, and stops the sweep). */
  refuse(seq: number, error: Error): void {
    this.keep((waiter) => {
      if (waiter.seq > seq) return true;
      waiter.reject(error);
      return false;
    });
    if (seq === Infinity) this.stop();
  }

  private sweep(): void {
    const now = performance.now();
    this.keep((waiter) => {
      if (waiter.deadline > now) return true;
      waiter.reject(new Error('the audit record was not kept in time'));
      return false;
    });
    if (this.waiters.length === 0) this.stop();
  }

  private keep(stays: (waiter: Waiter) => boolean): void {
    this.waiters = this.waiters.filter(stays);
  }

  private stop(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
