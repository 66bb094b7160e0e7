import type { Redis } from 'ioredis';
import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';
import { McpHttpError } from '../core/http/mcp-http.error.js';
import type { McpHttpSettings } from '../transports/http/http-settings.js';
import type {
  McpSessionDirectory,
  McpSessionRecord,
} from '../transports/http/session/session-directory.interface.js';
import type { McpClusterBus } from './cluster-bus.js';
import { RedisEventLog } from './redis-event.log.js';
import { ClusterSessionMirror } from './session-mirror.js';
import { STORE_UNREACHABLE } from './store-health.js';
import { setBounded } from '../core/common/bounded-map.js';

/** A session as the directory stores it: its record and the instance holding it. */
export interface DirectoryEntry extends McpSessionRecord {
  readonly instance: string;
}

/** How long a record outlives its owner's last refresh (the owner sweeps at most every minute). */
const RECORD_GRACE_MS = 120_000;
/** How long a record found is kept, and how many are. */
const FOUND_MS = 5_000;
const MAX_FOUND = 10_000;

/**
 * The sessions of every instance, in Redis: one record per session naming
 * the instance that holds it (its connection and handlers live there), kept
 * fresh by that instance's sweeps and gone with it (a record whose instance
 * no longer beats is a dead session). Session quotas are one hash per
 * caller, one field per instance, counted over the live instances only.
 */
export class RedisSessionDirectory implements McpSessionDirectory {
  readonly log: RedisEventLog;
  private readonly mirrors = new Map<string, ClusterSessionMirror>();
  /** The records of the sessions this instance holds. */
  private readonly held = new Map<string, DirectoryEntry>();
  /** Other instances' records found lately. */
  private readonly found = new Map<string, { entry: DirectoryEntry; at: number }>();
  private readonly redis: Redis;
  private readonly ttlMs: number;

  constructor(
    private readonly bus: McpClusterBus,
    private readonly settings: McpHttpSettings,
  ) {
    this.redis = bus.command;
    this.ttlMs = settings.sessionIdleMs + RECORD_GRACE_MS;
    this.log = new RedisEventLog(
      this.redis,
      bus.keys,
      settings.eventBufferSize * 2 + 16,
      this.ttlMs,
    );
    // A Redis that restarted empty forgot every record: without them the others answer 404 for
    // live sessions (a client starts over on 404) until the next sweep, up to a minute later.
    bus.health.reassert(() => this.reassert());
  }

  async takeQuota(quotaKey: string): Promise<void> {
    try {
      await this.countQuota(quotaKey);
    } catch (error) {
      throw error instanceof McpHttpError ? error : unavailable();
    }
  }

  private async countQuota(quotaKey: string): Promise<void> {
    const key = this.bus.keys.quota(quotaKey);
    await this.redis.hincrby(key, this.bus.instance, 1);
    await this.redis.pexpire(key, this.ttlMs);
    const held = await this.redis.hgetall(key);
    const instances = Object.keys(held);
    const alive = await this.redis.mget(...instances.map((i) => this.bus.keys.alive(i)));
    let total = 0;
    instances.forEach((instance, index) => {
      if (alive[index] !== null || instance === this.bus.instance) total += Number(held[instance]);
      // A dead instance's sessions died with it: its share goes too.
      else void this.redis.hdel(key, instance).catch(() => undefined);
    });
    if (total > this.settings.maxSessionsPerPrincipal) {
      await this.redis.hincrby(key, this.bus.instance, -1);
      throw new McpHttpError(
        429,
        'Too Many Requests: this caller holds too many sessions',
        JsonRpcErrorCode.TooManyRequests,
      );
    }
  }

  opened(session: McpSessionRecord): { mirror: ClusterSessionMirror; recorded: Promise<void> } {
    const entry: DirectoryEntry = {
      id: session.id,
      owner: session.owner,
      quotaKey: session.quotaKey,
      instance: this.bus.instance,
    };
    this.held.set(session.id, entry);
    const recorded = this.redis
      .set(this.bus.keys.session(session.id), JSON.stringify(entry), 'PX', this.ttlMs)
      .then(() => undefined);
    const mirror = new ClusterSessionMirror(session.id, this.bus, this.log);
    this.mirrors.set(session.id, mirror);
    return { mirror, recorded };
  }

  closed(session: McpSessionRecord): void {
    this.mirrors.delete(session.id);
    this.held.delete(session.id);
    // An ended session cannot be resumed anywhere: its log goes with it.
    this.log.remove(session.id);
    void this.redis.del(this.bus.keys.session(session.id)).catch(() => undefined);
    const quota = this.bus.keys.quota(session.quotaKey);
    void this.redis.hincrby(quota, this.bus.instance, -1).catch(() => undefined);
  }

  /**
   * Writes the records again (not just their expiry): one that another
   * instance dropped while this one could not beat (Redis out of reach for a
   * while) comes back once it can.
   */
  refresh(ids: readonly string[]): void {
    for (const id of ids) {
      const entry = this.held.get(id);
      if (!entry) continue;
      void this.redis
        .set(this.bus.keys.session(id), JSON.stringify(entry), 'PX', this.ttlMs)
        .catch(() => undefined);
    }
  }

  /**
   * Writes the records and quota shares of every session held here again, as
   * they are (the quota share is this instance's count, not an increment).
   */
  private async reassert(): Promise<void> {
    const shares = new Map<string, number>();
    const writes: Promise<unknown>[] = [];
    for (const entry of this.held.values()) {
      shares.set(entry.quotaKey, (shares.get(entry.quotaKey) ?? 0) + 1);
      const key = this.bus.keys.session(entry.id);
      writes.push(this.redis.set(key, JSON.stringify(entry), 'PX', this.ttlMs));
    }
    for (const [quotaKey, count] of shares) {
      const key = this.bus.keys.quota(quotaKey);
      writes.push(this.redis.hset(key, this.bus.instance, count));
      writes.push(this.redis.pexpire(key, this.ttlMs));
    }
    await Promise.all(writes);
  }

  /** The owner-side mirror of a session this instance holds. */
  mirror(id: string): ClusterSessionMirror | undefined {
    return this.mirrors.get(id);
  }

  /** Every mirror this instance holds (to forget the readers of a dead instance). */
  allMirrors(): Iterable<ClusterSessionMirror> {
    return this.mirrors.values();
  }

  /**
   * The record of any instance's session, or undefined. A record never
   * changes while it exists, so one found is kept a few seconds: the holder
   * checks every forwarded request against its own sessions anyway (an
   * ended one is 404 there), and a holder that died is found dead.
   */
  async find(id: string): Promise<DirectoryEntry | undefined> {
    if (id.length > 256) return undefined;
    const cached = this.found.get(id);
    if (cached && Date.now() - cached.at < FOUND_MS) return cached.entry;
    const entry = await this.lookup(id);
    if (entry) setBounded(this.found, id, { entry, at: Date.now() }, MAX_FOUND);
    else this.found.delete(id);
    return entry;
  }

  private async lookup(id: string): Promise<DirectoryEntry | undefined> {
    const raw = await this.redis.get(this.bus.keys.session(id)).catch(() => {
      throw unavailable();
    });
    if (raw === null) return undefined;
    try {
      const entry = JSON.parse(raw) as DirectoryEntry;
      return typeof entry.instance === 'string' && typeof entry.owner === 'string'
        ? entry
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** Drops the record of a session whose instance died. */
  forget(id: string): void {
    this.found.delete(id);
    void this.redis.del(this.bus.keys.session(id)).catch(() => undefined);
  }
}

/** Redis is out of reach: what needs it fails closed. */
export function unavailable(): McpHttpError {
  return new McpHttpError(503, STORE_UNREACHABLE);
}
