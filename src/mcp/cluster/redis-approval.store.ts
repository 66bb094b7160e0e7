import type { Redis } from 'ioredis';
import type {
  McpApprovalStore,
  McpOperatorAskPage,
} from '../approvals/stores/approval-store.interface.js';
import type { McpApprovalStoreBounds } from '../approvals/stores/memory-approval.store.js';
import { MAX_PAGE } from '../approvals/stores/memory-approval.store.js';
import type {
  McpOperatorAsk,
  McpOperatorAskEvent,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from '../approvals/operator/operator-ask.interface.js';
import type { McpClusterBus } from './cluster-bus.js';
import type { ClusterKeys } from './cluster-keys.js';

/** Expired members dropped per call: the rest go on the next one (their records are gone already). */
const SWEEP = 100;

/*
 * KEYS: all, pending. ARGV: now, limit. Drops expired members from the
 * indexes and returns their ids, so one instance announces each expiry.
 */
const SWEEP_LUA = `
local gone = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #gone > 0 then
  redis.call('ZREM', KEYS[1], unpack(gone))
  redis.call('ZREM', KEYS[2], unpack(gone))
end
return gone`;

/*
 * KEYS: record, all, pending, caller, binding. ARGV: now, expiresAt, ask JSON,
 * maxPending, maxPerCaller, id, caller key, '1' when bound. 1 when recorded, 0
 * when full or when a live ask holds the binding.
 */
const ADD_LUA = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local bound = ARGV[8] == '1'
if bound and redis.call('EXISTS', KEYS[5]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
if redis.call('ZCARD', KEYS[4]) >= tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'ask', ARGV[3], 'caller', ARGV[7])
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
if bound then
  redis.call('HSET', KEYS[1], 'binding', KEYS[5])
  redis.call('SET', KEYS[5], ARGV[6], 'PX', math.max(1, tonumber(ARGV[2]) - now))
end
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[6])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[6])
if redis.call('PTTL', KEYS[4]) < tonumber(ARGV[2]) - now then
  redis.call('PEXPIREAT', KEYS[4], ARGV[2])
end
return 1`;

/*
 * KEYS: record, pending. ARGV: decision JSON, id. The first decision wins:
 * HSETNX sets it only when none is there, and only on a live record.
 */
const DECIDE_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if redis.call('HSETNX', KEYS[1], 'decision', ARGV[1]) == 0 then return false end
redis.call('ZREM', KEYS[2], ARGV[2])
return redis.call('HGET', KEYS[1], 'ask')`;

/*
 * KEYS: record, all, pending. ARGV: id, the caller index's key prefix. Removes
 * the ask from every index (its binding too, while it still names this ask) and
 * returns its stored fields, ask and decision ('' when none), or false when it
 * was gone: of two instances taking one ask, one gets it.
 */
const TAKE_LUA = `
local fields = redis.call('HMGET', KEYS[1], 'ask', 'decision', 'caller', 'binding')
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if not fields[1] then return false end
redis.call('DEL', KEYS[1])
if fields[3] then redis.call('ZREM', ARGV[2] .. fields[3], ARGV[1]) end
if fields[4] and redis.call('GET', fields[4]) == ARGV[1] then redis.call('DEL', fields[4]) end
return { fields[1], fields[2] or '' }`;

interface WithScripts extends Redis {
  mcpWardenApprovalSweep(
    all: string,
    pending: string,
    now: number,
    limit: number,
  ): Promise<string[]>;
  mcpWardenApprovalAdd(...args: (string | number)[]): Promise<number>;
  mcpWardenApprovalDecide(
    record: string,
    pending: string,
    decision: string,
    id: string,
  ): Promise<string | null>;
  mcpWardenApprovalTake(
    record: string,
    all: string,
    pending: string,
    id: string,
    prefix: string,
  ): Promise<[string, string] | null>;
}

/**
 * Operator asks shared by every instance (cluster mode): a hash per ask
 * (the ask, and its decision) expiring at the ask's expiry, sorted sets by
 * expiry for the bound, the per-caller share and the pending page, and the
 * events on one pub/sub channel every instance hears, so a decision taken on
 * any instance releases the call on the instance where it waits.
 */
export class RedisApprovalStore implements McpApprovalStore {
  private readonly redis: WithScripts;
  private readonly listeners = new Set<(event: McpOperatorAskEvent) => void>();

  private constructor(
    private readonly bus: McpClusterBus,
    private readonly keys: ClusterKeys,
    private readonly bounds: McpApprovalStoreBounds,
  ) {
    const redis = bus.command;
    // defineCommand sends EVALSHA, and the script itself only the first time.
    const scripts: [string, number, string][] = [
      ['mcpWardenApprovalSweep', 2, SWEEP_LUA],
      ['mcpWardenApprovalAdd', 5, ADD_LUA],
      ['mcpWardenApprovalDecide', 2, DECIDE_LUA],
      ['mcpWardenApprovalTake', 3, TAKE_LUA],
    ];
    for (const [name, numberOfKeys, lua] of scripts) {
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys, lua });
    }
    this.redis = redis as WithScripts;
  }

  /** Opens the store on the instance's bus, listening for every instance's events. */
  static async open(
    bus: McpClusterBus,
    bounds: McpApprovalStoreBounds,
  ): Promise<RedisApprovalStore> {
    const store = new RedisApprovalStore(bus, bus.keys, bounds);
    await bus.listen(bus.keys.approvalsChannel, (raw) => store.hear(raw));
    return store;
  }

  async add(ask: McpOperatorAsk, binding?: string): Promise<boolean> {
    await this.sweep();
    const added = await this.redis.mcpWardenApprovalAdd(
      this.keys.approval(ask.id),
      this.keys.approvalsAll,
      this.keys.approvalsPending,
      this.keys.approvalsOf(ask.caller.key),
      this.keys.approvalBinding(binding ?? ''),
      Date.now(),
      ask.expiresAt,
      JSON.stringify(ask),
      this.bounds.maxPending,
      this.bounds.maxPerCaller,
      ask.id,
      ask.caller.key,
      binding === undefined ? '0' : '1',
    );
    if (added !== 1) return false;
    this.announce({ type: 'pending', ask });
    return true;
  }

  async get(id: string): Promise<McpOperatorAskRecord | undefined> {
    const [ask, decision] = await this.redis.hmget(this.keys.approval(id), 'ask', 'decision');
    return recordOf(ask, decision);
  }

  async bound(binding: string): Promise<McpOperatorAskRecord | undefined> {
    const id = await this.redis.get(this.keys.approvalBinding(binding));
    return id ? this.get(id) : undefined;
  }

  async take(id: string): Promise<McpOperatorAskRecord | undefined> {
    const taken = await this.redis.mcpWardenApprovalTake(
      this.keys.approval(id),
      this.keys.approvalsAll,
      this.keys.approvalsPending,
      id,
      this.keys.approvalsOf(''),
    );
    return taken ? recordOf(taken[0], taken[1] || null) : undefined;
  }

  async pending(options: { cursor?: string; limit?: number } = {}): Promise<McpOperatorAskPage> {
    await this.sweep();
    const start = Math.max(0, Number.parseInt(options.cursor ?? '0', 10) || 0);
    const limit = Math.min(Math.max(1, options.limit ?? MAX_PAGE), MAX_PAGE);
    const [total, ids] = await Promise.all([
      this.redis.zcard(this.keys.approvalsPending),
      this.redis.zrange(this.keys.approvalsPending, start, start + limit - 1),
    ]);
    const records = await Promise.all(ids.map((id) => this.get(id)));
    const asks = records.filter(
      (record): record is McpOperatorAskRecord => !!record && !record.decision,
    );
    const next = start + limit;
    return { asks, total, ...(next < total ? { nextCursor: String(next) } : {}) };
  }

  async decide(
    id: string,
    decision: McpOperatorDecision,
  ): Promise<McpOperatorAskRecord | undefined> {
    const json = JSON.stringify(decision);
    const ask = await this.redis.mcpWardenApprovalDecide(
      this.keys.approval(id),
      this.keys.approvalsPending,
      json,
      id,
    );
    // Decided once the script set it, live by Redis's clock: this instance's clock, a little
    // ahead, must not call it expired (the decision stands in Redis, unannounced, unrecorded).
    const record = recordOf(ask, json, Number.NEGATIVE_INFINITY);
    if (record) this.announce({ type: 'decided', ask: record });
    return record;
  }

  async remove(id: string): Promise<void> {
    await this.take(id);
  }

  watch(listener: (event: McpOperatorAskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /* Drops what expired from the indexes; whoever dropped an id announces it, once. */
  private async sweep(): Promise<void> {
    const gone = await this.redis.mcpWardenApprovalSweep(
      this.keys.approvalsAll,
      this.keys.approvalsPending,
      Date.now(),
      SWEEP,
    );
    for (const id of gone) this.announce({ type: 'expired', id });
  }

  /* Every instance hears it on the channel, this one included. */
  private announce(event: McpOperatorAskEvent): void {
    this.bus.publishOn(this.keys.approvalsChannel, event);
  }

  private hear(raw: string): void {
    const event = eventOf(raw);
    if (!event) return;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // One listener's failure must not keep the others (a waiting call) from hearing it.
      }
    }
  }
}

/* A record from its stored fields; undefined when gone or past its expiry. */
function recordOf(
  ask: string | null,
  decision: string | null,
  now = Date.now(),
): McpOperatorAskRecord | undefined {
  if (!ask) return undefined;
  try {
    const parsed = JSON.parse(ask) as McpOperatorAsk;
    if (!(parsed.expiresAt > now)) return undefined;
    return decision ? { ...parsed, decision: JSON.parse(decision) as McpOperatorDecision } : parsed;
  } catch {
    return undefined;
  }
}

/* Another instance's event, shape-checked: the channel is shared, never trusted blindly. */
function eventOf(raw: string): McpOperatorAskEvent | undefined {
  try {
    const event = JSON.parse(raw) as McpOperatorAskEvent;
    if (event?.type === 'expired' && typeof event.id === 'string') return event;
    if (
      (event?.type === 'pending' || event?.type === 'decided') &&
      typeof event.ask?.id === 'string'
    ) {
      return event;
    }
  } catch {
    // Not JSON: not ours.
  }
  return undefined;
}
