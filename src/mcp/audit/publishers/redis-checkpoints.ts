import type { McpAuditCheckpoint, McpCheckpointPublisher } from '../audit-options.interface.js';

/** The one command of a Redis client (ioredis) the publisher issues. */
export interface McpCheckpointStreamClient {
  xadd(key: string, id: '*', field: string, value: string): Promise<string | null>;
}

/** The stream checkpoints go to when no key is given. */
export const DEFAULT_CHECKPOINT_STREAM = 'mcp-warden:audit:checkpoints';

/** The stream entry's one field: the checkpoint as JSON (`McpAuditCheckpoint`). */
export const CHECKPOINT_FIELD = 'checkpoint';

/**
 * Appends each checkpoint to a Redis Stream, which `mcp-warden audit verify --checkpoints
 * redis://…` reads back. A stream, not a key per checkpoint: entries are never overwritten,
 * keep their order, and are read in one XRANGE. Nothing trims it: a trimmed checkpoint could
 * not prove a truncation.
 */
export function redisCheckpointPublisher(
  client: () => Promise<McpCheckpointStreamClient>,
  key: string = DEFAULT_CHECKPOINT_STREAM,
  close?: () => Promise<void>,
): McpCheckpointPublisher {
  return {
    async publish(checkpoint: McpAuditCheckpoint): Promise<void> {
      const redis = await client();
      const { instance, seq, note } = checkpoint;
      await redis.xadd(key, '*', CHECKPOINT_FIELD, JSON.stringify({ instance, seq, note }));
    },
    close,
  };
}
