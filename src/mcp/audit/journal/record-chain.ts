import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';
import type { McpAuditEntry } from '../audit-sink.interface.js';
import { GENESIS, lineDigest, type McpAuditCheckpointRecord } from '../chain/audit-record.js';
import { recordLine } from '../chain/record-line.js';

type ChainRecord = McpAuditEvent | McpAuditCheckpointRecord;

/**
 * One instance's hash chain (docs/audit.md): records are numbered as they come, and placed in
 * the chain (their line written, its digest the next record's `prev`) when `seal()` is called,
 * all waiting records in one pass. The journal decides when: at the end of a turn of the loop,
 * as a write begins, or at once past its bound.
 */
export class RecordChain {
  /** The last number given: the chain's size once every record is sealed. */
  size = 0;
  /** The digest of the last sealed record's line. */
  head = GENESIS;
  private waiting: { record: ChainRecord; seq: number }[] = [];

  constructor(readonly instance: string) {}

  /** Records numbered and not yet sealed. */
  get unsealed(): number {
    return this.waiting.length;
  }

  /**
   * Numbers `record`, and freezes it: its line waits for the next seal, and every sink then gets
   * this one object, so nothing may change it meanwhile (an event is frozen already).
   */
  number(record: ChainRecord): number {
    const seq = ++this.size;
    this.waiting.push({ record: Object.freeze(record), seq });
    return seq;
  }

  /** Places every waiting record in the chain, in order, and returns their entries. */
  seal(): McpAuditEntry[] {
    const batch = this.waiting;
    this.waiting = [];
    return batch.map(({ record, seq }) => {
      const line = recordLine(record, this.instance, seq, this.head);
      this.head = lineDigest(line);
      return { line, record, instance: this.instance, seq };
    });
  }
}
