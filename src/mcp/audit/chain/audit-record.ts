import { sha256Hex } from '../../core/common/sha256.js';
import type { McpAuditEvent } from '../../authorization/audit/mcp-audit-event.interface.js';

/**
 * A record as a sink keeps it: an audit event, or a signed checkpoint, placed in its
 * instance's hash chain. `prev` is the SHA-256 (hex) of the previous record's line; the first
 * record's `prev` is `GENESIS`.
 * @publicApi
 */
export type McpAuditRecord = (McpAuditEvent | McpAuditCheckpointRecord) & McpAuditChainLink;

/** Where a record sits in its chain. @publicApi */
export interface McpAuditChainLink {
  /** The process that wrote the chain (one chain per instance and start). */
  instance: string;
  /** 1 for the first record of the chain, then one more per record. */
  seq: number;
  prev: string;
}

/** A signed checkpoint of the chain (C2SP checkpoint note, docs/audit.md). @publicApi */
export interface McpAuditCheckpointRecord {
  id: string;
  kind: 'checkpoint';
  time: string;
  /** The signed note: origin, size (records covered) and head hash, then the signature. */
  checkpoint: string;
}

/** The `prev` of a chain's first record. */
export const GENESIS = '0'.repeat(64);

/** The digest the next record's `prev` names. */
export function lineDigest(line: string): string {
  return sha256Hex(line);
}
