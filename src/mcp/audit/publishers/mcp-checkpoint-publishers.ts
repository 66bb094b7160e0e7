import type { McpAuditCheckpoint, McpCheckpointPublisher } from '../audit-options.interface.js';

/** `McpCheckpointPublishers.webhook()` options. @publicApi */
export interface McpCheckpointWebhookOptions {
  /** Receives each checkpoint as a JSON POST (`McpAuditCheckpoint`). */
  url: string;
  /** Extra headers, such as the receiver's authorization. */
  headers?: Record<string, string>;
  /** Default 5,000 ms. */
  timeoutMs?: number;
}

/**
 * Second places for signed checkpoints (`audit.signing.publish`, docs/audit.md). Cluster mode
 * can also keep them in Redis.
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
};
