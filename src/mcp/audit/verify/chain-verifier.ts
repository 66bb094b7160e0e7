import type { KeyObject } from 'node:crypto';
import type { McpAuditCheckpoint } from '../audit-options.interface.js';
import { GENESIS, lineDigest } from '../chain/audit-record.js';
import { checkCheckpoints } from './checkpoint-checks.js';
import { crashCuts } from './crash-cuts.js';
import { insertedAmong } from './inserted-among.js';
import { isCheckpointRecord, isPublishedCheckpoint, placeOf } from './record-shape.js';

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
  /** It claims to be a checkpoint, but holds more or less than one. */
  readonly misshapen?: boolean;
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
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      // A file's last line, cut short: the write a crash interrupted, never acknowledged.
      if (stored.unterminated) torn.push(stored);
      else stray.push({ kind: 'inserted', where, message: 'a line that is not a JSON record' });
      continue;
    }
    const placed = placeOf(record);
    if (!placed) {
      stray.push({ kind: 'inserted', where, message: 'a record without its place in a chain' });
      continue;
    }
    const { instance, seq, prev } = placed;
    const fields = record as { id?: unknown; kind?: unknown; checkpoint?: unknown };
    const claimsCheckpoint = fields.kind === 'checkpoint' || fields.checkpoint !== undefined;
    const checkpoint =
      claimsCheckpoint && isCheckpointRecord(fields) ? fields.checkpoint : undefined;
    const parsed: Parsed = {
      where,
      segment: stored.segment,
      digest: lineDigest(line),
      seq,
      prev,
      id: typeof fields.id === 'string' ? fields.id : undefined,
      checkpoint,
      misshapen: claimsCheckpoint && checkpoint === undefined,
    };
    const chain = chains.get(instance) ?? [];
    chain.push(parsed);
    chains.set(instance, chain);
  }
  const usable = published.filter(isPublishedCheckpoint);
  if (usable.length < published.length) {
    stray.push({
      kind: 'inserted',
      where: 'published checkpoints',
      message: 'a published entry that is not a checkpoint (instance, seq and note)',
    });
  }
  const cuts = crashCuts(torn, chains, stray);
  const reports = [...chains].map(([instance, records]) => {
    const report = verifyChain(
      instance,
      records,
      key,
      usable.filter((p) => p.instance === instance),
      window,
    );
    const cut = cuts.get(instance);
    return cut ? { ...report, torn: cut } : report;
  });
  for (const checkpoint of usable) {
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
  const label = (record: Parsed) => ({ where: record.where, seq: record.seq, id: record.id });
  const impostors = insertedAmong(records);
  const bySeq = new Map<number, Parsed>();
  let first = Infinity;
  let lastSeq = 0;
  for (const record of records) {
    first = Math.min(first, record.seq);
    lastSeq = Math.max(lastSeq, record.seq);
    if (impostors.has(record)) {
      flag({
        kind: 'inserted',
        ...label(record),
        message: `a second record at position ${record.seq}, which the chain does not name`,
      });
    } else {
      bySeq.set(record.seq, record);
    }
  }
  // Retention removed a chain's oldest files when its lowest file is not its first.
  const pruned =
    !window && records.every((record) => record.segment !== undefined && record.segment > 1);
  const start = (window || pruned) && records.length > 0 ? first : 1;
  // Each link: a record names the digest of the one before it (the first, GENESIS). Checked by
  // position, not by stored order, so a record both moved and edited is named for each.
  for (const record of bySeq.values()) {
    if (record.misshapen) {
      flag({
        kind: 'edited',
        ...label(record),
        message: `record ${record.seq} is a checkpoint with fields a checkpoint does not have`,
      });
    }
    const before = record.seq === 1 ? undefined : bySeq.get(record.seq - 1);
    const wanted = record.seq === 1 ? GENESIS : before?.digest;
    if (wanted !== undefined && record.prev !== wanted) {
      const edited = before ?? record;
      flag({
        kind: 'edited',
        ...label(edited),
        message: `record ${edited.seq} does not hash to what the next record names`,
      });
    }
  }
  // Order, in stored order: a record stored before the one its chain puts first is moved; one
  // stored after a later position is out of order. (A position no record holds is a gap, below.)
  const storedAt = new Map(records.map((record, index) => [record, index]));
  let highest = start - 1;
  records.forEach((record, index) => {
    if (impostors.has(record)) return;
    const skipped = record.seq > highest + 1 ? bySeq.get(highest + 1) : undefined;
    if (skipped && storedAt.get(skipped)! > index) {
      flag({
        kind: 'reordered',
        ...label(record),
        message: `record ${skipped.seq} comes after record ${record.seq}`,
      });
    } else if (record.seq <= highest) {
      flag({
        kind: 'reordered',
        ...label(record),
        message: `record ${record.seq} is out of order`,
      });
    }
    highest = Math.max(highest, record.seq);
  });
  // Gaps: positions from the chain's start to its last record that no record holds.
  const held = [...bySeq.keys()].sort((a, b) => a - b);
  let expected = start;
  for (const seq of held) {
    if (seq > expected) {
      flag({
        kind: 'removed',
        ...label(bySeq.get(seq)!),
        message: `records ${expected}–${seq - 1} are missing before this one`,
      });
      break;
    }
    expected = seq + 1;
  }
  const signed = checkCheckpoints({
    instance,
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
  // A checkpoint of records before the first one kept signs none of those the log holds.
  if (key && !window && signed.signing === 0) {
    const opening = records[0]!;
    flag({ kind: 'unsigned', ...label(opening), message: 'no checkpoint signs this chain' });
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
