import type { Redis } from 'ioredis';
import type { McpSharedCallRate } from '../transports/http/security/shared-call-rate.interface.js';
import type { ClusterKeys } from './cluster-keys.js';

/*
 * One token bucket, taken atomically in Redis (the clock is Redis's own, so
 * instances whose clocks disagree still share one bucket). The key expires
 * once the bucket would be full again.
 */
const TAKE = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local count = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or capacity
local at = tonumber(bucket[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * rate / 1000)
local wait = 0
if tokens >= count then tokens = tokens - count else wait = math.ceil((count - tokens) * 1000 / rate) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity * 1000 / rate) + 1000)
return wait
`;

type WithTake = Redis & {
  mcpWardenTakeTokens(key: string, rate: number, capacity: number, count: number): Promise<number>;
};

/** `limits.callsPerSecondPerPrincipal` over every instance: one bucket per caller in Redis. */
export class RedisCallRate implements McpSharedCallRate {
  private readonly redis: WithTake;

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

  take(key: string, count: number, ratePerSecond: number, capacity: number): Promise<number> {
    return this.redis.mcpWardenTakeTokens(this.keys.rate(key), ratePerSecond, capacity, count);
  }
}
