import type { KeyObject } from 'node:crypto';
import type { McpAuditCheckpoint } from '../audit-options.interface.js';
import { GENESIS, lineDigest } from '../chain/audit-record.js';
import { checkCheckpoints } from './checkpoint-checks.js';

/** One stored line, and where it was read. */
export interface StoredLine {
  readonly where: string;
  readonly line: string;
  /** A JSON Lines file's number (`audit-<instance>-<n>.jsonl`): retention removes the lowest. */
  readonly segment?: number;
  /** The file's last line had no newline: a write the process may not have finished. */
  readonly unterminated?: boolean;
}

/** What can be wrong with a chain (docs/audit.md, "Verifying"). @publicApi */
export type McpAuditBreakKind =
  'edited' | 'removed' | 'reordered' | 'inserted' | 'truncated' | 'wrong-key' | 'unsigned';

/** The first break of one kind in one chain. @publicApi */
export interface McpAuditBreak {
  readonly kind: McpAuditBreakKind;
  readonly where: string;
  readonly seq?: number;
  readonly id?: string;
  readonly message: string;
}

/** One instance's chain, as verified. @publicApi */
export interface McpAuditChainReport {
  readonly instance: string;
  readonly records: number;
  readonly lastSeq: number;
  readonly checkpoints: number;
  /** Checkpoints whose signature, size and head hash held under the key. */
  readonly verifiedCheckpoints: number;
  /** Records after the last verified checkpoint: chained, not yet signed. */
  readonly unsignedTail: number;
  /**
   * Records before the first one kept, in files retention (`maxFiles`) removed: the chain's
   * oldest files are gone, and it is verified from its first kept record.
   */
  readonly pruned?: number;
  /** Where a file ends in a partial line, a write left unfinished (a crash): not a record. */
  readonly torn?: string;
  readonly breaks: readonly McpAuditBreak[];
}

export interface Parsed {
  readonly where: string;
  readonly segment?: number;
  readonly digest: string;
  readonly seq: number;
  readonly prev: string;
  readonly id?: string;
  readonly checkpoint?: string;
}

/**
 * Verifies every chain in `lines` (stored order) and, with `key`, every checkpoint's signature;
 * `published` are checkpoints kept in a second place, which catch a log cut short together
 * with its last checkpoints. Each chain reports the first break of each kind.
 */
export function verifyChains(
  lines: readonly StoredLine[],
  key?: KeyObject,
  published: readonly McpAuditCheckpoint[] = [],
  /** A window of a chain (the console's recent records): it may start past the first record. */
  window = false,
): McpAuditChainReport[] {
  const chains = new Map<string, Parsed[]>();
  const stray: McpAuditBreak[] = [];
  const torn: StoredLine[] = [];
  for (const stored of lines) {
    const { where, line } = stored;
    let record: {
      instance?: unknown;
      seq?: unknown;
      prev?: unknown;
      id?: unknown;
      checkpoint?: unknown;
    };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      // A file's last line, cut short: the write a crash interrupted, never acknowledged.
      if (stored.unterminated) torn.push(stored);
      else stray.push({ kind: 'inserted', where, message: 'a line that is not a JSON record' });
      continue;
    }
    if (
      typeof record.instance !== 'string' ||
      !Number.isInteger(record.seq) ||
      typeof record.prev !== 'string'
    ) {
      stray.push({ kind: 'inserted', where, message: 'a record without its place in a chain' });
      continue;
    }
    const parsed: Parsed = {
      where,
      segment: stored.segment,
      digest: lineDigest(line),
      seq: record.seq as number,
      prev: record.prev,
      id: typeof record.id === 'string' ? record.id : undefined,
      checkpoint: typeof record.checkpoint === 'string' ? record.checkpoint : undefined,
    };
    const chain = chains.get(record.instance) ?? [];
    chain.push(parsed);
    chains.set(record.instance, chain);
  }
  const reports = [...chains].map(([instance, records]) => {
    const report = verifyChain(
      instance,
      records,
      key,
      published.filter((p) => p.instance === instance),
      window,
    );
    // A torn line belongs to the chain whose records its file holds.
    const cut = torn.find((line) => records.some((r) => fileOf(r.where) === fileOf(line.where)));
    return cut ? { ...report, torn: cut.where } : report;
  });
  for (const checkpoint of published) {
    if (chains.has(checkpoint.instance)) continue;
    reports.push({
      instance: checkpoint.instance,
      records: 0,
      lastSeq: 0,
      checkpoints: 0,
      verifiedCheckpoints: 0,
      unsignedTail: 0,
      breaks: [
        {
          kind: 'truncated',
          where: 'published checkpoints',
          seq: checkpoint.seq,
          message: `a published checkpoint covers ${checkpoint.seq} records of a chain the log does not hold`,
        },
      ],
    });
  }
  if (stray.length > 0) {
    reports.push({
      instance: '(unattributed)',
      records: stray.length,
      lastSeq: 0,
      checkpoints: 0,
      verifiedCheckpoints: 0,
      unsignedTail: 0,
      breaks: [stray[0]!],
    });
  }
  return reports;
}

/* The file a JSON Lines record was read from: its `where` without the line number. */
function fileOf(where: string): string {
  return where.slice(0, where.lastIndexOf(':'));
}

function verifyChain(
  instance: string,
  records: readonly Parsed[],
  key: KeyObject | undefined,
  published: readonly McpAuditCheckpoint[],
  window: boolean,
): McpAuditChainReport {
  const breaks = new Map<McpAuditBreakKind, McpAuditBreak>();
  const flag = (found: McpAuditBreak) => {
    if (!breaks.has(found.kind)) breaks.set(found.kind, found);
  };
  const impostors = insertedAmong(records);
  for (const record of impostors) {
    flag({
      kind: 'inserted',
      where: record.where,
      seq: record.seq,
      id: record.id,
      message: `a second record at position ${record.seq}, which the chain does not name`,
    });
  }
  const bySeq = new Map<number, Parsed>();
  const later = new Set<number>();
  for (const record of records) later.add(record.seq);
  // Retention removed a chain's oldest files when its lowest file is not its first.
  const segments = records.map((record) => record.segment);
  const pruned = !window && segments.every((segment) => segment !== undefined && segment > 1);
  const start =
    (window || pruned) && records.length > 0 ? Math.min(...records.map((r) => r.seq)) : 1;
  let expected = start;
  let previous: Parsed | undefined;
  const seen = new Set<number>();
  for (const record of records) {
    if (impostors.has(record)) continue;
    const label = { where: record.where, seq: record.seq, id: record.id };
    seen.add(record.seq);
    bySeq.set(record.seq, record);
    if (record.seq === expected) {
      const wanted =
        previous && previous.seq === expected - 1
          ? previous.digest
          : expected === 1
            ? GENESIS
            : undefined;
      if (wanted !== undefined && record.prev !== wanted) {
        const edited = expected === 1 ? record : previous!;
        flag({
          kind: 'edited',
          where: edited.where,
          seq: edited.seq,
          id: edited.id,
          message: `record ${edited.seq} does not hash to what the next record names`,
        });
      }
      expected += 1;
    } else if (record.seq > expected) {
      const missing = [] as number[];
      for (let seq = expected; seq < record.seq && missing.length < 2; seq += 1) {
        if (!seen.has(seq)) missing.push(seq);
      }
      const movedLater = missing.some((seq) => later.has(seq) && !seen.has(seq));
      flag({
        kind: movedLater ? 'reordered' : 'removed',
        ...label,
        message: movedLater
          ? `record ${expected} comes after record ${record.seq}`
          : `records ${expected}–${record.seq - 1} are missing before this one`,
      });
      expected = record.seq + 1;
    } else {
      flag({ kind: 'reordered', ...label, message: `record ${record.seq} is out of order` });
    }
    previous = record;
  }
  const lastSeq = Math.max(0, ...records.map((record) => record.seq));
  const signed = checkCheckpoints({
    records,
    bySeq,
    key,
    published,
    window: window || pruned,
    start,
    lastSeq,
    flag,
  });
  // Under a key, a chain no checkpoint signs proves nothing: anyone could have written it whole.
  if (key && !window && signed.checkpoints === 0) {
    const first = records[0]!;
    flag({
      kind: 'unsigned',
      where: first.where,
      seq: first.seq,
      id: first.id,
      message: 'no checkpoint signs this chain',
    });
  }
  const order: McpAuditBreakKind[] = [
    'edited',
    'removed',
    'reordered',
    'inserted',
    'truncated',
    'wrong-key',
    'unsigned',
  ];
  return {
    instance,
    records: records.length,
    lastSeq,
    checkpoints: signed.checkpoints,
    verifiedCheckpoints: signed.verified,
    unsignedTail: Math.max(0, lastSeq - signed.lastVerified),
    ...(pruned && start > 1 ? { pruned: start - 1 } : {}),
    breaks: order.flatMap((kind) => (breaks.has(kind) ? [breaks.get(kind)!] : [])),
  };
}

/*
 * Two records at one position: the chain's own is the one the next record's `prev` names (an
 * inserted record can copy a `prev`, never be named by a record written before it existed);
 * without a next record, the first stored. The others were inserted.
 */
function insertedAmong(records: readonly Parsed[]): Set<Parsed> {
  const at = new Map<number, Parsed[]>();
  for (const record of records) at.set(record.seq, [...(at.get(record.seq) ?? []), record]);
  const inserted = new Set<Parsed>();
  for (const [seq, candidates] of at) {
    if (candidates.length < 2) continue;
    const named = new Set((at.get(seq + 1) ?? []).map((next) => next.prev));
    const own = candidates.find((candidate) => named.has(candidate.digest)) ?? candidates[0]!;
    for (const candidate of candidates) if (candidate !== own) inserted.add(candidate);
  }
  return inserted;
}
