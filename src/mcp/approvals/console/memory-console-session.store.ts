import type { McpPrincipal } from '../../authentication/principal.interface.js';
import {
  consoleOperatorKey,
  type ConsoleSessionBounds,
  type ConsoleSessionRecord,
  type McpConsoleSessionStore,
} from './console-session-store.interface.js';

/**
 * The default session store: one process, bounded, expiring lazily (every write first drops
 * what expired), so it holds no timer. Insertion order is sign-in order, which is also the
 * order an operator's sessions expire in.
 */
export class MemoryConsoleSessionStore implements McpConsoleSessionStore {
  private readonly records = new Map<string, ConsoleSessionRecord>();
  private readonly byOperator = new Map<string, Set<string>>();
  private readonly claims = new Map<string, { checkAt: number; until: number }>();

  constructor(private readonly bounds: ConsoleSessionBounds) {}

  async create(record: ConsoleSessionRecord): Promise<boolean> {
    this.sweep();
    const key = consoleOperatorKey(record.operator);
    const held = this.byOperator.get(key) ?? new Set<string>();
    for (const oldest of held) {
      if (held.size < this.bounds.maxPerOperator) break;
      this.drop(oldest);
    }
    if (this.records.size >= this.bounds.maxSessions) return false;
    this.records.set(record.id, record);
    this.byOperator.set(key, held.add(record.id));
    return true;
  }

  async get(id: string): Promise<ConsoleSessionRecord | undefined> {
    const record = this.records.get(id);
    if (record && record.expiresAt <= Date.now()) {
      this.drop(id);
      return undefined;
    }
    return record;
  }

  async update(record: ConsoleSessionRecord): Promise<boolean> {
    if (!(await this.get(record.id))) return false;
    this.records.set(record.id, record);
    return true;
  }

  async remove(id: string): Promise<void> {
    this.drop(id);
  }

  async removeOperator(operator: McpPrincipal): Promise<void> {
    for (const id of [...(this.byOperator.get(consoleOperatorKey(operator)) ?? [])]) this.drop(id);
  }

  async claim(id: string, checkAt: number, ms: number): Promise<boolean> {
    const now = Date.now();
    const held = this.claims.get(id);
    if (!this.records.has(id) || (held?.checkAt === checkAt && held.until > now)) return false;
    this.claims.set(id, { checkAt, until: now + ms });
    return true;
  }

  /** How many sessions the store holds. */
  get size(): number {
    return this.records.size;
  }

  private drop(id: string): void {
    const record = this.records.get(id);
    this.claims.delete(id);
    if (!record) return;
    this.records.delete(id);
    const key = consoleOperatorKey(record.operator);
    const held = this.byOperator.get(key);
    held?.delete(id);
    if (held?.size === 0) this.byOperator.delete(key);
  }

  private sweep(now = Date.now()): void {
    for (const record of this.records.values()) {
      if (record.expiresAt <= now) this.drop(record.id);
    }
  }
}
