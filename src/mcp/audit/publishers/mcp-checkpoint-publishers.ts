import type { McpAuditCheckpoint, McpCheckpointPublisher } from '../audit-options.interface.js';
import {
  connectCheckpointRedis,
  DEFAULT_CHECKPOINT_STREAM,
  redisCheckpointPublisher,
} from './redis-checkpoints.js';

/** `McpCheckpointPublishers.webhook()` options. @publicApi */
export interface McpCheckpointWebhookOptions {
  /** Receives each checkpoint as a JSON POST (`McpAuditCheckpoint`). */
  url: string;
  /** Extra headers, such as the receiver's authorization. */
  headers?: Record<string, string>;
  /** Default 5,000 ms. */
  timeoutMs?: number;
}

/** `McpCheckpointPublishers.redis()` options. @publicApi */
export interface McpCheckpointRedisOptions {
  /** The Redis that keeps the checkpoints, such as `redis://audit-host:6379`. */
  url: string;
  /** The stream's key. Default `mcp-warden:audit:checkpoints`. */
  key?: string;
}

/**
 * Second places for signed checkpoints (`audit.signing.publish`, docs/audit.md). In cluster
 * mode, without `publish`, they go to the cluster's Redis.
 * @publicApi
 */
export const McpCheckpointPublishers = {
  /** POSTs each checkpoint to a receiver that is not the log's host. */
  webhook(options: McpCheckpointWebhookOptions): McpCheckpointPublisher {
    return {
      async publish(checkpoint: McpAuditCheckpoint): Promise<void> {
        const response = await fetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...options.headers },
          body: JSON.stringify(checkpoint),
          signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
        });
        await response.body?.cancel();
        if (!response.ok) throw new Error(`the receiver answered ${response.status}`);
      },
    };
  },

  /**
   * Appends each checkpoint to a Redis Stream (`verify --checkpoints redis://…/?key=…` reads
   * it). The connection opens at the first checkpoint; `ioredis` is loaded only then.
   */
  redis(options: McpCheckpointRedisOptions): McpCheckpointPublisher {
    let opened: Promise<import('ioredis').Redis> | undefined;
    return redisCheckpointPublisher(
      () =>
        (opened ??= connectCheckpointRedis(options.url).catch((error: unknown) => {
          opened = undefined;
          throw error;
        })),
      options.key ?? DEFAULT_CHECKPOINT_STREAM,
      async () => {
        const redis = await opened?.catch(() => undefined);
        await redis?.quit().catch(() => undefined);
      },
    );
  },
};
