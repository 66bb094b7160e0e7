import type { Parsed } from './chain-verifier.js';

/*
 * Two records at one position: the chain's own is the one the next record's `prev` names (an
 * inserted record can copy a `prev`, never be named by a record written before it existed);
 * without a next record, the first stored. The others were inserted.
 */
export function insertedAmong(records: readonly Parsed[]): Set<Parsed> {
  const at = new Map<number, Parsed[]>();
  for (const record of records) {
    const same = at.get(record.seq);
    if (same) same.push(record);
    else at.set(record.seq, [record]);
  }
  const inserted = new Set<Parsed>();
  for (const [seq, candidates] of at) {
    if (candidates.length < 2) continue;
    const named = new Set((at.get(seq + 1) ?? []).map((next) => next.prev));
    const own = candidates.find((candidate) => named.has(candidate.digest)) ?? candidates[0]!;
    for (const candidate of candidates) if (candidate !== own) inserted.add(candidate);
  }
  return inserted;
}
