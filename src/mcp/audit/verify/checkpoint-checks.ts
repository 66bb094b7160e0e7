import type { KeyObject } from 'node:crypto';
import type { McpAuditCheckpoint } from '../audit-options.interface.js';
import { checkpointBody, openCheckpoint } from '../chain/checkpoint-note.js';
import type { McpAuditBreak, Parsed } from './chain-verifier.js';

/** What the checkpoint checks of one chain read. */
export interface CheckpointInputs {
  /** The chain's instance: a checkpoint's origin ends in it (`mcp-warden/<server>/<instance>`). */
  readonly instance: string;
  readonly records: readonly Parsed[];
  readonly bySeq: ReadonlyMap<number, Parsed>;
  readonly key: KeyObject | undefined;
  readonly published: readonly McpAuditCheckpoint[];
  /** A window of a chain: checkpoints may cover records before its first, `start`. */
  readonly window: boolean;
  readonly start: number;
  readonly lastSeq: number;
  readonly flag: (found: McpAuditBreak) => void;
}

/**
 * The checkpoints of one chain: each one in the log must be signed by `key`, be this chain's
 * (its origin) and name the record it claims (its size and head hash); each published one must
 * be signed, be this chain's, held by the log as published, and not cover more than the log
 * holds (else the log was cut short).
 */
export function checkCheckpoints(inputs: CheckpointInputs): {
  checkpoints: number;
  verified: number;
  /** Verified checkpoints that sign a record the log holds. */
  signing: number;
  lastVerified: number;
} {
  const { instance, records, bySeq, key, published, window, start, lastSeq, flag } = inputs;
  let checkpoints = 0;
  let verified = 0;
  let signing = 0;
  let lastVerified = 0;
  // A note copied from another chain is signed and well formed: only its origin tells.
  const ours = (origin: string) => origin.endsWith(`/${instance}`);
  for (const record of records) {
    if (!record.checkpoint) continue;
    checkpoints += 1;
    if (!key) continue;
    const opened = openCheckpoint(record.checkpoint, key);
    const label = { where: record.where, seq: record.seq, id: record.id };
    if (opened.signature === 'other-key') {
      flag({ kind: 'wrong-key', ...label, message: 'a checkpoint signed with another key' });
      continue;
    }
    if (opened.signature === 'invalid') {
      flag({ kind: 'edited', ...label, message: 'a checkpoint whose signature does not hold' });
      continue;
    }
    if (!ours(opened.origin)) {
      flag({
        kind: 'inserted',
        ...label,
        message: `a checkpoint of another chain (${opened.origin}) at record ${record.seq}`,
      });
      continue;
    }
    const head = bySeq.get(opened.size);
    // In a window, a checkpoint may cover records before it: its signature is all there is to check.
    const before = window && opened.size < start && opened.size === record.seq - 1;
    if (!before && (opened.size !== record.seq - 1 || !head || head.digest !== opened.head)) {
      const target = head ?? record;
      flag({
        kind: 'edited',
        where: target.where,
        seq: target.seq,
        id: target.id,
        message: `record ${opened.size} is not the one checkpoint ${record.seq} signed`,
      });
      continue;
    }
    verified += 1;
    if (!before) signing += 1;
    lastVerified = Math.max(lastVerified, record.seq);
  }
  for (const checkpoint of published) {
    if (key) {
      const opened = openCheckpoint(checkpoint.note, key);
      if (opened.signature !== 'signed') {
        flag({
          kind: opened.signature === 'other-key' ? 'wrong-key' : 'edited',
          where: 'published checkpoints',
          seq: checkpoint.seq,
          message: 'a published checkpoint whose signature does not hold under the key',
        });
        continue;
      }
    }
    const { origin, size, head } = checkpointBody(checkpoint.note);
    if (!ours(origin)) {
      flag({
        kind: 'inserted',
        where: 'published checkpoints',
        seq: checkpoint.seq,
        message: `a published checkpoint of another chain (${origin})`,
      });
      continue;
    }
    if (checkpoint.seq > lastSeq) {
      flag({
        kind: 'truncated',
        where: 'published checkpoints',
        seq: checkpoint.seq,
        message: `the log ends at record ${lastSeq}; a published checkpoint is record ${checkpoint.seq}`,
      });
      continue;
    }
    const held = bySeq.get(checkpoint.seq);
    if (held && held.checkpoint !== checkpoint.note) {
      flag({
        kind: 'edited',
        where: held.where,
        seq: held.seq,
        id: held.id,
        message:
          held.checkpoint === undefined
            ? `the log holds another record where checkpoint ${checkpoint.seq} was published`
            : 'the log holds another checkpoint than the one published',
      });
    }
    // The record the published note signed must be in the log as it was: a log cut short and
    // grown again, or rewritten and chained anew from an edited record, names other hashes.
    const signedHead = bySeq.get(size);
    if (signedHead && signedHead.digest !== head) {
      flag({
        kind: 'edited',
        where: signedHead.where,
        seq: signedHead.seq,
        id: signedHead.id,
        message: `record ${size} is not the one published checkpoint ${checkpoint.seq} signed`,
      });
    }
  }
  return { checkpoints, verified, signing, lastVerified };
}
