import type { Logger } from '@nestjs/common';
import type { McpRedisConnections } from './redis-connection.js';

/**
 * After the store comes back, how long a missing liveness key is not yet an
 * instance's death: every instance writes its key again as soon as its own
 * connections are back, but the client library retries a lost connection
 * every 2 s at most, so another instance may be that much later than this one
 * (plus the key's 3 s life, the usual verdict).
 */
export const RECOVERY_GRACE_MS = 5_000;

/** What a request that needs the store is told while it cannot be reached. */
export const STORE_UNREACHABLE = 'Service Unavailable: the cluster store cannot be reached';

/** Work an instance does when the store is back, before it counts as reachable again. */
type Reassertion = () => Promise<unknown>;

/**
 * Whether this instance reaches the cluster store (Redis), told once per
 * change: one warning when it becomes unreachable, one line when it is back,
 * however many requests were refused meanwhile. A restarted Redis may be
 * empty, so coming back is a sequence: both connections ready, the
 * subscriber's channels subscribed again, then what the instance registers
 * there (its liveness key, its sessions) written again, and only then
 * reachable, and the `onRecovered` listeners told.
 */
export class ClusterStoreHealth {
  /** When the store was lost; undefined while it is reachable. */
  private lostAt?: number;
  private recoveredAt = Number.NEGATIVE_INFINITY;
  private recovering = false;
  /** Lost again while recovering: the recovery does not count. */
  private relapsed = false;
  private stopped = false;
  private readonly reassertions: Reassertion[] = [];
  private readonly lostListeners = new Set<(reason: string) => void>();
  private readonly recoveredListeners = new Set<(downMs: number) => void>();

  constructor(
    private readonly redis: McpRedisConnections,
    private readonly logger: Logger,
  ) {
    for (const connection of [redis.command, redis.subscriber]) {
      connection.on('close', () => this.failed('the connection closed'));
      connection.on('error', (error: Error) => this.failed(error.message));
      connection.on('ready', () => void this.recover());
    }
  }

  /** Whether the store answers (as far as this instance last saw). */
  get reachable(): boolean {
    return this.lostAt === undefined;
  }

  /** Whether the store came back so lately that other instances may not have yet. */
  get settling(): boolean {
    return Date.now() - this.recoveredAt < RECOVERY_GRACE_MS;
  }

  /** Registers work to redo when the store comes back (it may have restarted empty). */
  reassert(work: Reassertion): void {
    this.reassertions.push(work);
  }

  /** Calls `listener` each time the store becomes unreachable; returns the unsubscribe. */
  onLost(listener: (reason: string) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Calls `listener` each time the store is reachable again; returns the unsubscribe. */
  onRecovered(listener: (downMs: number) => void): () => void {
    this.recoveredListeners.add(listener);
    return () => this.recoveredListeners.delete(listener);
  }

  /** A command failed, or a connection dropped: the first failure of an outage is logged. */
  failed(reason: string): void {
    if (this.stopped) return;
    if (this.lostAt !== undefined) {
      if (this.recovering) this.relapsed = true;
      return;
    }
    this.lostAt = Date.now();
    this.logger.warn(
      `the cluster store cannot be reached (${reason}): what needs it is refused until it is back`,
    );
    for (const listener of [...this.lostListeners]) listener(reason);
  }

  /** A command succeeded: if the store was lost without a reconnect, it is back. */
  succeeded(): void {
    if (this.lostAt !== undefined) void this.recover();
  }

  /** Stops watching (the instance is closing its connections: that is no outage). */
  stop(): void {
    this.stopped = true;
  }

  private async recover(): Promise<void> {
    const { command, subscriber } = this.redis;
    if (this.stopped || this.lostAt === undefined || this.recovering) return;
    if (command.status !== 'ready' || subscriber.status !== 'ready') return;
    this.recovering = true;
    this.relapsed = false;
    try {
      // The client sends its re-subscriptions first on that connection: once this answers,
      // messages published to this instance reach it again.
      await subscriber.ping();
      for (const work of this.reassertions) await work();
    } catch {
      // Still lost: the next reconnect, or the next command that succeeds, tries again.
      this.relapsed = true;
    } finally {
      this.recovering = false;
    }
    if (this.relapsed || this.stopped || this.lostAt === undefined) return;
    const downMs = Date.now() - this.lostAt;
    this.lostAt = undefined;
    this.recoveredAt = Date.now();
    this.logger.log(
      `the cluster store is reachable again after ${(downMs / 1000).toFixed(1)} s; ` +
        `this instance's sessions are registered again`,
    );
    for (const listener of [...this.recoveredListeners]) listener(downMs);
  }
}
