import type { McpAuditEntry, McpAuditSink } from '../../src/index.js';

/**
 * A real sink, reporting each batch it kept: what the failClosed suites wait on, not a clock.
 * `afterKept` runs once a batch is kept and before the journal hears of it: where a suite cuts
 * the database at an exact point of a call's story; `beforeWrite`, where it holds a write.
 */
export class ObservedSink implements McpAuditSink {
  readonly name = 'sql';
  private waiting?: () => void;
  afterKept?: (entries: readonly McpAuditEntry[]) => Promise<void> | void;
  /** Runs before a batch is written: where a suite holds a record's write. */
  beforeWrite?: (entries: readonly McpAuditEntry[]) => Promise<void> | void;

  constructor(private readonly inner: McpAuditSink) {}

  open(instance: string) {
    return this.inner.open!(instance);
  }

  async write(entries: readonly McpAuditEntry[]) {
    await this.beforeWrite?.(entries);
    await this.inner.write(entries);
    await this.afterKept?.(entries);
    // After the journal has taken note of the kept batch (its continuation runs first).
    const waiting = this.waiting;
    if (waiting) setImmediate(waiting);
  }

  nextWrite(): Promise<void> {
    return new Promise((resolve) => (this.waiting = resolve));
  }
}
