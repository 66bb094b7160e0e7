import type { Redis } from 'ioredis';
import type { McpPrincipal } from '../authentication/principal.interface.js';
import {
  consoleOperatorKey,
  type ConsoleSessionBounds,
  type ConsoleSessionRecord,
  type McpConsoleSessionStore,
} from '../approvals/console/console-session-store.interface.js';

/*
 * KEYS: record, all, operator. ARGV: now, expiresAt, record JSON, id, maxSessions,
 * maxPerOperator, the record keys' prefix, operator key. Drops what expired from both
 * indexes, makes room among the operator's own sessions (oldest first), then records the
 * session unless the store is full: 1 when recorded, 0 when full.
 */
const CREATE_LUA = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
while redis.call('ZCARD', KEYS[3]) > 0 and redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) do
  local oldest = redis.call('ZPOPMIN', KEYS[3])[1]
  redis.call('ZREM', KEYS[2], oldest)
  redis.call('DEL', ARGV[7] .. oldest)
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[3], 'op', ARGV[8])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[4])
if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[2]) - now then
  redis.call('PEXPIREAT', KEYS[3], ARGV[2])
end
return 1`;

/* KEYS: record. ARGV: record JSON. Replaces a live record's data, keeping its expiry. */
const UPDATE_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[1])
return 1`;

/* KEYS: record, all. ARGV: id, the operator indexes' prefix. Ends one session. */
const REMOVE_LUA = `
local op = redis.call('HGET', KEYS[1], 'op')
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if op then redis.call('ZREM', ARGV[2] .. op, ARGV[1]) end
return 1`;

/* KEYS: operator, all. ARGV: the record keys' prefix. Ends every session of one operator. */
const REMOVE_OPERATOR_LUA = `
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, id in ipairs(ids) do
  redis.call('DEL', ARGV[1] .. id)
  redis.call('ZREM', KEYS[2], id)
end
redis.call('DEL', KEYS[1])
return #ids`;

interface WithScripts extends Redis {
  mcpWardenConsoleCreate(...args: (string | number)[]): Promise<number>;
  mcpWardenConsoleUpdate(record: string, data: string): Promise<number>;
  mcpWardenConsoleRemove(record: string, all: string, id: string, prefix: string): Promise<number>;
  mcpWardenConsoleRemoveOperator(operator: string, all: string, prefix: string): Promise<number>;
}

/**
 * Console sessions shared by every instance (cluster mode): a hash per session expiring at
 * the session's end, a sorted set of all sessions and one per operator, scored by expiry, for
 * the bounds. Every request reads the record, so a sign-out or a lost scope on one instance
 * ends the session on all of them at once.
 */
export class RedisConsoleSessionStore implements McpConsoleSessionStore {
  private readonly redis: WithScripts;

  /** `prefix` is the cluster's key prefix (`cluster.keyPrefix`). */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly bounds: ConsoleSessionBounds,
  ) {
    const scripts: [string, number, string][] = [
      ['mcpWardenConsoleCreate', 3, CREATE_LUA],
      ['mcpWardenConsoleUpdate', 1, UPDATE_LUA],
      ['mcpWardenConsoleRemove', 2, REMOVE_LUA],
      ['mcpWardenConsoleRemoveOperator', 2, REMOVE_OPERATOR_LUA],
    ];
    for (const [name, numberOfKeys, lua] of scripts) {
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys, lua });
    }
    this.redis = redis as WithScripts;
  }

  async create(record: ConsoleSessionRecord): Promise<boolean> {
    const operator = consoleOperatorKey(record.operator);
    const created = await this.redis.mcpWardenConsoleCreate(
      this.record(record.id),
      this.all,
      this.operator(operator),
      Date.now(),
      record.expiresAt,
      JSON.stringify(record),
      record.id,
      this.bounds.maxSessions,
      this.bounds.maxPerOperator,
      this.record(''),
      operator,
    );
    return created === 1;
  }

  async get(id: string): Promise<ConsoleSessionRecord | undefined> {
    const data = await this.redis.hget(this.record(id), 'data');
    if (!data) return undefined;
    try {
      const record = JSON.parse(data) as ConsoleSessionRecord;
      return record.expiresAt > Date.now() ? record : undefined;
    } catch {
      return undefined;
    }
  }

  async update(record: ConsoleSessionRecord): Promise<boolean> {
    const updated = await this.redis.mcpWardenConsoleUpdate(
      this.record(record.id),
      JSON.stringify(record),
    );
    return updated === 1;
  }

  async remove(id: string): Promise<void> {
    await this.redis.mcpWardenConsoleRemove(this.record(id), this.all, id, this.operator(''));
  }

  async removeOperator(operator: McpPrincipal): Promise<void> {
    await this.redis.mcpWardenConsoleRemoveOperator(
      this.operator(consoleOperatorKey(operator)),
      this.all,
      this.record(''),
    );
  }

  async claim(id: string, checkAt: number, ms: number): Promise<boolean> {
    const key = `${this.prefix}console:recheck:${id}:${checkAt}`;
    return (await this.redis.set(key, '1', 'PX', ms, 'NX')) === 'OK';
  }

  private record(id: string): string {
    return `${this.prefix}console:session:${id}`;
  }

  private operator(key: string): string {
    return `${this.prefix}console:operator:${key}`;
  }

  private get all(): string {
    return `${this.prefix}console:sessions`;
  }
}
