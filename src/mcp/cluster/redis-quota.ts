import type { Redis } from 'ioredis';
import type { McpSharedCallRate } from '../transports/http/security/shared-call-rate.interface.js';
import type { ClusterKeys } from './cluster-keys.js';
import { setBounded } from '../core/common/bounded-map.js';

/*
 * One token bucket, taken atomically in Redis (the clock is Redis's own, so
 * instances whose clocks disagree still share one bucket): at least `need`
 * tokens and up to `want`, or none and the ms until `need` are there. The
 * key expires once the bucket would be full again.
 */
const TAKE = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local need = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or capacity
local at = tonumber(bucket[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
local granted = 0
local wait = 0
if tokens >= need then
  granted = math.max(need, math.min(want, math.floor(tokens)))
  tokens = tokens - granted
else
  wait = math.ceil((need - tokens) * 1000 / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity * 1000 / rate) + 1000)
return { granted, wait }
`;

/** Tokens an instance holds for a caller, taken from the shared bucket. */
interface Lease {
  tokens: number;
  takenAt: number;
}

/** A lease's share of the bucket, and how long an unused one is kept. */
const LEASE_SHARE = 1 / 20;
const LEASE_MS = 1_000;
const MAX_LEASES = 10_000;

type WithTake = Redis & {
  mcpWardenTakeTokens(
    key: string,
    rate: number,
    capacity: number,
    need: number,
    want: number,
  ): Promise<[number, number]>;
};

/**
 * `limits.callsPerSecondPerPrincipal` over every instance: one bucket per
 * caller in Redis. An instance takes tokens in leases of a twentieth of the
 * bucket (one at a time for small buckets) and spends them locally for up
 * to a second, so a busy caller costs one Redis call per lease, not per
 * request. Never more than the bucket allows is admitted; a caller may be
 * admitted a little less (the unspent rest of a lease, per instance).
 */
export class RedisCallRate implements McpSharedCallRate {
  private readonly redis: WithTake;
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<[number, number]>>();

  constructor(
    redis: Redis,
    private readonly keys: ClusterKeys,
  ) {
    // defineCommand sends EVALSHA, and the script itself only the first time.
    if (!('mcpWardenTakeTokens' in redis)) {
      redis.defineCommand('mcpWardenTakeTokens', { numberOfKeys: 1, lua: TAKE });
    }
    this.redis = redis as WithTake;
  }

  async take(key: string, count: number, ratePerSecond: number, capacity: number): Promise<number> {
    // Concurrent requests of one caller share one lease request instead of each taking a lease.
    for (let attempt = 0; attempt < 2; attempt++) {
      const lease = this.leases.get(key);
      if (lease && lease.tokens >= count && Date.now() - lease.takenAt < LEASE_MS) {
        lease.tokens -= count;
        return 0;
      }
      const pending = this.pending.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const want = Math.max(count, Math.floor(capacity * LEASE_SHARE));
      const request = this.redis
        .mcpWardenTakeTokens(this.keys.rate(key), ratePerSecond, capacity, count, want)
        .finally(() => this.pending.delete(key));
      this.pending.set(key, request);
      const [granted, wait] = await request;
      if (granted < count) return Math.max(1, wait);
      if (granted > count) this.keep(key, granted - count, Date.now());
      else this.leases.delete(key);
      return 0;
    }
    // The lease this request waited for was spent by the others: take its own tokens.
    const [granted, wait] = await this.redis.mcpWardenTakeTokens(
      this.keys.rate(key),
      ratePerSecond,
      capacity,
      count,
      count,
    );
    return granted < count ? Math.max(1, wait) : 0;
  }

  private keep(key: string, tokens: number, now: number): void {
    setBounded(this.leases, key, { tokens, takenAt: now }, MAX_LEASES);
  }
}
