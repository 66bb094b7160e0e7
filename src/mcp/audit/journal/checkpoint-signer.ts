import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { McpAuditOptions, McpCheckpointPublisher } from '../audit-options.interface.js';

/** How the journal signs its checkpoints: `audit.signing` with its defaults filled in. */
export interface CheckpointSigner {
  readonly key: KeyObject;
  readonly name: string;
  readonly everyRecords: number;
  readonly everyMs: number;
  readonly publish?: McpCheckpointPublisher;
}

/**
 * `audit.signing` read once at boot: an Ed25519 key (any other fails boot), every 1,000 records
 * or 10 s by default, published to `signing.publish`, else to cluster mode's Redis
 * (`clusterCheckpoints`) when there is one (docs/audit.md, "The chain and its checkpoints").
 */
export function checkpointSigner(
  signing: NonNullable<McpAuditOptions['signing']>,
  clusterCheckpoints: McpCheckpointPublisher | null,
): CheckpointSigner {
  const key =
    typeof signing.privateKey === 'string'
      ? createPrivateKey(signing.privateKey)
      : signing.privateKey;
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error('MCP server refuses to boot: `audit.signing.privateKey` must be Ed25519');
  }
  return {
    key,
    name: signing.keyId ?? 'mcp-warden-audit',
    everyRecords: signing.everyRecords ?? 1_000,
    everyMs: signing.everyMs ?? 10_000,
    publish: signing.publish ?? clusterCheckpoints ?? undefined,
  };
}
