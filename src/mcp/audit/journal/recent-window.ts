import type { McpAuditEntry } from '../audit-sink.interface.js';

/** Records the console's Audit page can show; the sinks hold the rest. */
const RECENT_RECORDS = 1_000;

/**
 * The journal's last records, for the console's Audit page, kept only once a reader asked:
 * every record in it outlives the young generation, which cost more than the rest of a record
 * (docs/audit.md, "Performance").
 */
export class RecentWindow {
  private entries: McpAuditEntry[] = [];
  private keeping = false;

  /** A reader asked: records from now on are kept. */
  keep(): void {
    this.keeping = true;
  }

  add(entry: McpAuditEntry): void {
    if (!this.keeping) return;
    this.entries.push(entry);
    // Trimmed in halves so the trim is rare and cheap.
    if (this.entries.length >= RECENT_RECORDS * 2) {
      this.entries = this.entries.slice(-RECENT_RECORDS);
    }
  }

  records(): readonly McpAuditEntry[] {
    return this.entries.slice(-RECENT_RECORDS);
  }
}
