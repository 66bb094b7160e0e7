import type { Redis } from 'ioredis';
import type { McpNonceStore } from '../era/mrtr/nonce-store.interface.js';
import type { ClusterKeys } from './cluster-keys.js';

/**
 * Single-use nonces shared by every instance: `SET NX` is atomic, so of two
 * instances replaying one `requestState` at once exactly one wins. A nonce
 * is kept until its state expires (Redis drops it then), so a replay is
 * caught for as long as the state would be accepted at all.
 */
export class RedisNonceStore implements McpNonceStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
  ) {}

  async consume(nonce: string, expiresAt: number): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(expiresAt - Date.now()));
    const set = await this.redis.set(this.keys.nonce(nonce), '1', 'PX', ttl, 'NX');
    return set === 'OK';
  }
}
