import type { Redis } from 'ioredis';
import type {
  McpTaskBounds,
  McpTaskStore,
} from '../revisions/2026-07-28/tasks/task-store.interface.js';
import {
  FINAL_STATUSES,
  type McpTask,
  type McpTaskChange,
  type McpTaskStatus,
} from '../revisions/2026-07-28/tasks/task.interface.js';
import { changedTask } from '../revisions/2026-07-28/tasks/task-change.js';
import type { ClusterKeys } from './cluster-keys.js';

/*
 * KEYS: the task, its caller's index, every caller's index. ARGV: now, expiresAt, perCaller,
 * capacity, taskId, the task's JSON. 1 when kept, 0 when a bound is reached. Both bounds are
 * counted in the script that adds the task, so two instances cannot both take the last place.
 */
const CREATE_LUA = `
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], 't', ARGV[6], 'v', 1)
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[5])
local ttl = tonumber(ARGV[2]) - now
if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
if redis.call('PTTL', KEYS[3]) < ttl then redis.call('PEXPIRE', KEYS[3], ttl) end
return 1`;

/* KEYS: the task. ARGV: the version read, the new JSON. 1 when it was still that version. */
const SWAP_LUA = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 't', ARGV[2], 'v', tonumber(ARGV[1]) + 1)
return 1`;

/** Live tasks read per console page at most, running or finished, to find the running ones. */
const MAX_SCANNED = 1_000;

/** How often a change is tried again when another instance changed the task in between. */
const MAX_SWAPS = 16;

type WithScripts = Redis & {
  mcpWardenTaskCreate(...args: (string | number)[]): Promise<number>;
  mcpWardenTaskSwap(...args: (string | number)[]): Promise<number>;
};

/**
 * Tasks in cluster mode's Redis (docs/tasks.md): any instance reads, answers and cancels a
 * task any other created. A task is a hash (its JSON and a version) that expires at its TTL;
 * a change is read, applied and written back only if nobody wrote in between (compare and
 * swap in a script), so status transitions stay atomic without Lua touching the JSON.
 */
export class RedisTaskStore implements McpTaskStore {
  private readonly redis: WithScripts;

  constructor(
    redis: Redis,
    private readonly keys: ClusterKeys,
  ) {
    // defineCommand sends EVALSHA, and the script itself only the first time.
    if (!('mcpWardenTaskCreate' in redis)) {
      redis.defineCommand('mcpWardenTaskCreate', { numberOfKeys: 3, lua: CREATE_LUA });
      redis.defineCommand('mcpWardenTaskSwap', { numberOfKeys: 1, lua: SWAP_LUA });
    }
    this.redis = redis as WithScripts;
  }

  async create(task: McpTask, bounds: McpTaskBounds): Promise<boolean> {
    const kept = await this.redis.mcpWardenTaskCreate(
      this.keys.task(task.taskId),
      this.keys.tasksOf(task.quotaKey),
      this.keys.tasksAll,
      Date.now(),
      task.expiresAt,
      bounds.maxTasksPerPrincipal,
      bounds.maxTasks,
      task.taskId,
      JSON.stringify(task),
    );
    return kept === 1;
  }

  async get(taskId: string): Promise<McpTask | undefined> {
    const json = await this.redis.hget(this.keys.task(taskId), 't');
    return json === null ? undefined : (JSON.parse(json) as McpTask);
  }

  async running(limit: number): Promise<McpTask[]> {
    // Every live task, oldest first (scored by expiry, and every task has the server's TTL).
    const ids = await this.redis.zrangebyscore(
      this.keys.tasksAll,
      Date.now(),
      '+inf',
      'LIMIT',
      0,
      MAX_SCANNED,
    );
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hget(this.keys.task(id), 't');
    const running: McpTask[] = [];
    for (const [, json] of (await pipeline.exec()) ?? []) {
      if (typeof json !== 'string') continue;
      const task = JSON.parse(json) as McpTask;
      if (!FINAL_STATUSES.has(task.status)) running.push(task);
      if (running.length >= limit) break;
    }
    return running;
  }

  async update(
    taskId: string,
    change: McpTaskChange,
    from: readonly McpTaskStatus[],
  ): Promise<McpTask | undefined> {
    const key = this.keys.task(taskId);
    for (let attempt = 0; attempt < MAX_SWAPS; attempt++) {
      const [json, version] = await this.redis.hmget(key, 't', 'v');
      if (json === null || version === null) return undefined;
      const task = JSON.parse(json) as McpTask;
      if (!from.includes(task.status)) return undefined;
      const changed = changedTask(task, change);
      if ((await this.redis.mcpWardenTaskSwap(key, version, JSON.stringify(changed))) === 1) {
        return changed;
      }
    }
    throw new Error(`task ${taskId}: too many concurrent changes`);
  }
}
