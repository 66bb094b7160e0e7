import { setBounded } from '../../core/common/bounded-map.js';

/* Enough for the distinct requests a busy server repeats; a bound, so memory cannot grow. */
const MAX_ENTRIES = 4_096;
/* Requests with long arguments are not worth a key that size. */
const MAX_KEY_CHARS = 2_048;

/**
 * Decisions already taken by one applied policy set. Cedar is a pure function of the request,
 * its entities and the set, so an exact repeat of all three has the same answer: the key is
 * their whole serialized form. A new set starts a new cache, so a reload never serves an old
 * answer. The oldest entries go first; a hit does not reorder, which would cost a delete and
 * an insert on the hot path.
 */
export class DecisionCache<T> {
  private readonly entries = new Map<string, T>();

  get(key: string): T | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: T): void {
    if (key.length > MAX_KEY_CHARS) return;
    setBounded(this.entries, key, value, MAX_ENTRIES);
  }
}
