import type { Redis } from 'ioredis';
import { DEFAULT_LIMITS } from '../core/limits/default-limits.js';
import type { McpNonceStore } from '../core/stores/nonce-store.interface.js';
import {
  callerShareFull,
  callerStatesFull,
  nonceStoreBoundsOf,
  type McpNonceStoreBounds,
} from '../core/stores/nonce-store.bounds.js';
import type { ClusterKeys } from './cluster-keys.js';

/*
 * KEYS: nonce, the caller's index, every caller's index. ARGV: now,
 * expiresAt, ttl, perCaller, capacity, nonce. 1 when consumed, 0 for a
 * replay, -1 when the caller's share is full, -2 when every caller's is.
 * A replay is answered before the bounds are looked at, as in memory.
 */
const CONSUME_LUA = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return -1 end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) then return -2 end
redis.call('SET', KEYS[1], '1', 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[6])
local ttl = tonumber(ARGV[3])
if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
if redis.call('PTTL', KEYS[3]) < ttl then redis.call('PEXPIRE', KEYS[3], ttl) end
return 1`;

type WithScript = Redis & {
  mcpWardenNonceConsume(...args: (string | number)[]): Promise<number>;
};

/**
 * Single-use nonces shared by every instance: of two instances replaying one
 * `requestState` at once exactly one wins. A nonce is kept until its state
 * expires (Redis drops it then), so a replay is caught for as long as the
 * state would be accepted at all.
 *
 * A caller's nonces are counted, in one script with the check, against its
 * share and against every caller's bound (`limits.maxRequestStatesPerPrincipal`,
 * `limits.maxRequestStates`), over all instances. The server's own entries
 * (webhook notices and links) are plain `SET NX` keys counted against no
 * caller: they live no longer than their ask, and asks are bounded by the
 * approval store.
 */
export class RedisNonceStore implements McpNonceStore {
  private readonly redis: WithScript;

  constructor(
    redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly bounds: McpNonceStoreBounds = nonceStoreBoundsOf(DEFAULT_LIMITS),
  ) {
    // defineCommand sends EVALSHA, and the script itself only the first time.
    if (!('mcpWardenNonceConsume' in redis)) {
      redis.defineCommand('mcpWardenNonceConsume', { numberOfKeys: 3, lua: CONSUME_LUA });
    }
    this.redis = redis as WithScript;
  }

  async consume(nonce: string, expiresAt: number, caller?: string): Promise<boolean> {
    const now = Date.now();
    const ttl = Math.max(1, Math.ceil(expiresAt - now));
    if (caller === undefined) {
      const set = await this.redis.set(this.keys.nonce(nonce), '1', 'PX', ttl, 'NX');
      return set === 'OK';
    }
    const outcome = await this.redis.mcpWardenNonceConsume(
      this.keys.nonce(nonce),
      this.keys.noncesOf(caller),
      this.keys.noncesAll,
      now,
      expiresAt,
      ttl,
      this.bounds.perCaller,
      this.bounds.capacity,
      nonce,
    );
    if (outcome === -1) throw callerShareFull();
    if (outcome === -2) throw callerStatesFull();
    return outcome === 1;
  }
}
