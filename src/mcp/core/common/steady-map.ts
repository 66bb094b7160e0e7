/* The entry that keeps the table from emptying; no caller can name it. */
const KEEP: unique symbol = Symbol('kept entry');

/**
 * A Map for per-call bookkeeping that fills and empties on every call (a session's requests in
 * flight, its open POST exchanges). V8 shrinks a Map's hash table when a delete leaves it less
 * than half full, and an empty table is less than half full at any size: each delete that
 * empties the Map called into the runtime and allocated a new table. Where calls are served
 * one at a time (Fastify's routes), that was three runtime calls per `tools/call`, about 7% of
 * the server's time (bench: throughput-http, docs/performance.md). One entry that is never
 * deleted keeps the table from emptying; it is invisible to every method here.
 */
export class SteadyMap<K, V> {
  private readonly map = new Map<K | typeof KEEP, V | undefined>([[KEEP, undefined]]);

  get size(): number {
    return this.map.size - 1;
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): this {
    this.map.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
    this.map.set(KEEP, undefined);
  }

  /** The values, in insertion order. */
  *values(): IterableIterator<V> {
    for (const [key, value] of this.map) if (key !== KEEP) yield value as V;
  }
}
