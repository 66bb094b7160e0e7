import type { Redis } from 'ioredis';

/** The two connections an instance holds: commands, and the pub/sub subscriber. */
export interface McpRedisConnections {
  readonly command: Redis;
  readonly subscriber: Redis;
  close(): Promise<void>;
}

/**
 * Opens the instance's Redis connections. `ioredis` is imported here, lazily,
 * so a server without `cluster` never loads it. Chosen over node-redis for
 * what this needs in one package: typed stream and pub/sub commands, Lua
 * scripts sent once and run by SHA (`defineCommand`), and reconnecting with
 * its subscriptions restored.
 *
 * Auto-pipelining stays off: a command is written to Redis's socket the
 * moment it is issued, so an event is on its way to the log before the same
 * event is written to the client. A client that saw an event can replay it
 * from the log even if this instance is killed the next instant.
 */
export async function openRedis(url: string): Promise<McpRedisConnections> {
  const { Redis } = await import('ioredis');
  const options = {
    lazyConnect: true,
    enableAutoPipelining: false,
    // A command queued while Redis is away fails after a few retries instead of waiting forever.
    maxRetriesPerRequest: 3,
    connectTimeout: 5_000,
    // `disconnect()` destroys a socket that has not closed after this long. A socket that never
    // connected, or that Redis dropped, has closed already: the default 2 s would only hold the
    // process (a failed boot, a shutdown with Redis away).
    disconnectTimeout: 0,
  };
  const command = new Redis(url, options);
  const subscriber = new Redis(url, options);
  // Connection errors are retried by the client; logging each one is the caller's choice.
  command.on('error', () => undefined);
  subscriber.on('error', () => undefined);
  try {
    await Promise.all([command.connect(), subscriber.connect()]);
  } catch (error) {
    // The boot fails; left alone, both clients would go on reconnecting for good.
    command.disconnect();
    subscriber.disconnect();
    throw error;
  }
  return {
    command,
    subscriber,
    async close() {
      await Promise.allSettled([command.quit(), subscriber.quit()]);
    },
  };
}
