import type { McpAuditCheckpoint } from '../audit-options.interface.js';

/* What a stored line must be to take a place in a chain, a checkpoint's or a published one's. */

/* A record's place in its chain, or undefined when it has none. */
export function placeOf(
  record: unknown,
): { instance: string; seq: number; prev: string } | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  const { instance, seq, prev } = record as Record<string, unknown>;
  if (typeof instance !== 'string' || typeof prev !== 'string') return undefined;
  // Positions count from 1, and past 2^53 - 1 two of them could not be told apart.
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  return { instance, seq, prev };
}

const CHECKPOINT_FIELDS = ['checkpoint', 'id', 'instance', 'kind', 'prev', 'seq', 'time'];

/*
 * A checkpoint record holds its note and its place, nothing more. At the end of a log no later
 * record hashes it, and its note signs the records before it, not itself: a field beside the
 * note (a decision's, say) would be vouched for by nothing (docs/audit.md, "Verifying").
 */
export function isCheckpointRecord(
  fields: Record<string, unknown>,
): fields is { checkpoint: string } {
  const keys = Object.keys(fields).sort();
  return (
    fields.kind === 'checkpoint' &&
    typeof fields.checkpoint === 'string' &&
    typeof fields.id === 'string' &&
    typeof fields.time === 'string' &&
    keys.length === CHECKPOINT_FIELDS.length &&
    keys.every((key, index) => key === CHECKPOINT_FIELDS[index])
  );
}

export function isPublishedCheckpoint(entry: unknown): entry is McpAuditCheckpoint {
  if (typeof entry !== 'object' || entry === null) return false;
  const { instance, seq, note } = entry as Record<string, unknown>;
  return (
    typeof instance === 'string' &&
    typeof note === 'string' &&
    typeof seq === 'number' &&
    Number.isSafeInteger(seq) &&
    seq >= 1
  );
}
