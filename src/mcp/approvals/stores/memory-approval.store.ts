import type { McpApprovalStore, McpOperatorAskPage } from './approval-store.interface.js';
import type {
  McpOperatorAsk,
  McpOperatorAskEvent,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from '../operator/operator-ask.interface.js';

/** The bounds of a store: in all, and per caller (`caller.key`). */
export interface McpApprovalStoreBounds {
  readonly maxPending: number;
  readonly maxPerCaller: number;
}

/** The most asks one page holds, whatever the caller asks for. */
export const MAX_PAGE = 100;

/**
 * The default approval store: one process, bounded, expiring. Expiry is lazy
 * (every operation first drops what expired, announcing it), so the store
 * holds no timer; the waiting calls keep their own deadlines.
 */
export class MemoryApprovalStore implements McpApprovalStore {
  /* Insertion order is creation order: the pending page is oldest first for free. */
  private readonly records = new Map<string, McpOperatorAskRecord>();
  private readonly perCaller = new Map<string, number>();
  /* The ask each binding names, and back: a binding is held while its ask lives. */
  private readonly bindings = new Map<string, string>();
  private readonly bindingOf = new Map<string, string>();
  private readonly listeners = new Set<(event: McpOperatorAskEvent) => void>();

  constructor(private readonly bounds: McpApprovalStoreBounds) {}

  async add(ask: McpOperatorAsk, binding?: string): Promise<boolean> {
    this.sweep();
    if (this.records.has(ask.id) || this.records.size >= this.bounds.maxPending) return false;
    if (binding !== undefined && this.bindings.has(binding)) return false;
    const held = this.perCaller.get(ask.caller.key) ?? 0;
    if (held >= this.bounds.maxPerCaller) return false;
    this.records.set(ask.id, { ...ask });
    this.perCaller.set(ask.caller.key, held + 1);
    if (binding !== undefined) {
      this.bindings.set(binding, ask.id);
      this.bindingOf.set(ask.id, binding);
    }
    this.emit({ type: 'pending', ask });
    return true;
  }

  async get(id: string): Promise<McpOperatorAskRecord | undefined> {
    this.sweep();
    return this.records.get(id);
  }

  async bound(binding: string): Promise<McpOperatorAskRecord | undefined> {
    this.sweep();
    const id = this.bindings.get(binding);
    return id === undefined ? undefined : this.records.get(id);
  }

  async take(id: string): Promise<McpOperatorAskRecord | undefined> {
    this.sweep();
    const record = this.records.get(id);
    if (record) this.drop(record);
    return record;
  }

  async pending(options: { cursor?: string; limit?: number } = {}): Promise<McpOperatorAskPage> {
    this.sweep();
    const open = [...this.records.values()].filter((record) => !record.decision);
    const start = Math.max(0, Number.parseInt(options.cursor ?? '0', 10) || 0);
    const limit = Math.min(Math.max(1, options.limit ?? MAX_PAGE), MAX_PAGE);
    const asks = open.slice(start, start + limit).map(askOf);
    const next = start + limit;
    return {
      asks,
      total: open.length,
      ...(next < open.length ? { nextCursor: String(next) } : {}),
    };
  }

  async decide(
    id: string,
    decision: McpOperatorDecision,
  ): Promise<McpOperatorAskRecord | undefined> {
    this.sweep();
    const record = this.records.get(id);
    if (!record || record.decision) return undefined;
    const decided: McpOperatorAskRecord = { ...record, decision: { ...decision } };
    this.records.set(id, decided);
    this.emit({ type: 'decided', ask: decided });
    return decided;
  }

  async remove(id: string): Promise<void> {
    const record = this.records.get(id);
    if (record) this.drop(record);
  }

  watch(listener: (event: McpOperatorAskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many records the store holds (pending and decided). */
  get size(): number {
    return this.records.size;
  }

  private drop(record: McpOperatorAskRecord): void {
    this.records.delete(record.id);
    const binding = this.bindingOf.get(record.id);
    if (binding !== undefined) {
      this.bindingOf.delete(record.id);
      this.bindings.delete(binding);
    }
    const left = (this.perCaller.get(record.caller.key) ?? 1) - 1;
    if (left > 0) this.perCaller.set(record.caller.key, left);
    else this.perCaller.delete(record.caller.key);
  }

  private sweep(now = Date.now()): void {
    for (const record of this.records.values()) {
      if (record.expiresAt > now) continue;
      this.drop(record);
      this.emit({ type: 'expired', id: record.id });
    }
  }

  private emit(event: McpOperatorAskEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // One listener's failure must not keep the others (a waiting call) from hearing it.
      }
    }
  }
}

/** The ask without its decision (a page lists pending asks only). */
export function askOf(record: McpOperatorAskRecord): McpOperatorAsk {
  const { decision: _decision, ...ask } = record;
  return ask;
}
