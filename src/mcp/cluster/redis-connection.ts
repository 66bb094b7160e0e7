import type { Redis } from 'ioredis';

/** The two connections an instance holds: commands, and the pub/sub subscriber. */
export interface McpRedisConnections {
  readonly command: Redis;
  readonly subscriber: Redis;
  close(): Promise<void>;
}

/**
 * Opens the instance's Redis connections. `ioredis` is imported here, lazily,
 * so a server without `cluster` never loads it. Chosen over node-redis for its
 * auto-pipelining (every command of one turn goes out in one write, which
 * keeps forwarded calls cheap) and its typed stream and pub/sub commands in
 * one package without extra modules.
 */
export async function openRedis(url: string): Promise<McpRedisConnections> {
  const { Redis } = await import('ioredis');
  const options = {
    lazyConnect: true,
    enableAutoPipelining: true,
    // A command queued while Redis is away fails after a few retries instead of waiting forever.
    maxRetriesPerRequest: 3,
    connectTimeout: 5_000,
  };
  const command = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, enableAutoPipelining: false });
  // Connection errors are retried by the client; logging each one is the caller's choice.
  command.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  await Promise.all([command.connect(), subscriber.connect()]);
  return {
    command,
    subscriber,
    async close() {
      await Promise.allSettled([command.quit(), subscriber.quit()]);
    },
  };
}
