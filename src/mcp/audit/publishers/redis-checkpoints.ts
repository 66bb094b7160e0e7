import type { McpAuditCheckpoint, McpCheckpointPublisher } from '../audit-options.interface.js';

/** The one command of a Redis client (ioredis) the publisher issues. */
export interface McpCheckpointStreamClient {
  xadd(key: string, id: '*', field: string, value: string): Promise<string | null>;
}

/**
 * A connected ioredis client for the checkpoints' stream (the publisher's, and the CLI's that
 * reads it). `ioredis` is loaded here only. A client that could not connect is disconnected
 * before the error goes up: left alone, it would retry forever and hold the process.
 */
export async function connectCheckpointRedis(url: string): Promise<import('ioredis').Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 3,
    // `disconnect()` ends the socket and destroys it only after this long unless it closes
    // first. A socket refused at connect has closed already, so the wait (2 s by default) would
    // only hold the process: `audit verify` with Redis down, say.
    disconnectTimeout: 0,
  });
  // Errors reach the command that failed; reconnecting after a connection is lost is ioredis's.
  redis.on('error', () => undefined);
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return redis;
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
