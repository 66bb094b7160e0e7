/**
 * Sets `key` in `map` as its newest entry (an entry already there moves to the end), first
 * dropping the oldest when the map already holds `max`: the bound every cache, ledger and
 * memory here keeps, so a caller that brings new keys forever costs a fixed amount of memory.
 * Oldest by insertion, not by use: a hit that reordered would cost a delete and an insert on
 * every read.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, value);
}
