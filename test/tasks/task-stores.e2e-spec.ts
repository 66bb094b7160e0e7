import { Redis } from 'ioredis';
import { ClusterKeys } from '../../src/mcp/cluster/cluster-keys.js';
import { RedisTaskStore } from '../../src/mcp/cluster/redis-task.store.js';
import { MemoryTaskStore, type McpTask, type McpTaskStore } from '../../src/index.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import { deleteKeys, uniquePrefix } from '../cluster/cluster-support.js';

/*
 * The two task stores to one contract (docs/tasks.md): both bounds, the TTL, status changes
 * only from the statuses named and never out of a final one, and the running list. The Redis
 * store against the real Redis, two store objects on two connections as two instances hold.
 */

const BOUNDS = { maxTasks: 4, maxTasksPerPrincipal: 2 };

function task(taskId: string, quotaKey: string, ttlMs = 60_000): McpTask {
  const now = Date.now();
  return {
    taskId,
    owner: quotaKey,
    quotaKey,
    tool: 'export',
    status: 'working',
    createdAt: new Date(now).toISOString(),
    lastUpdatedAt: new Date(now).toISOString(),
    ttlMs,
    pollIntervalMs: 1_000,
    expiresAt: now + ttlMs,
  };
}

/** Resolves once `store` no longer finds `taskId` (its TTL passed), checking each turn. */
async function gone(store: McpTaskStore, taskId: string): Promise<void> {
  while (await store.get(taskId)) await new Promise((resolve) => setImmediate(resolve));
}

function storeContract(name: string, open: () => Promise<[McpTaskStore, McpTaskStore]>) {
  describe(`${name} task store`, () => {
    let one: McpTaskStore;
    let two: McpTaskStore;
    beforeEach(async () => {
      [one, two] = await open();
    });
    afterEach(async () => {
      await one.close?.();
      await two.close?.();
    });

    it('a task is found once created, by every holder of the store', async () => {
      expect(await one.create(task('t1', 'a'), BOUNDS)).toBe(true);
      expect(await two.get('t1')).toMatchObject({ taskId: 't1', status: 'working' });
      expect(await two.get('nope')).toBeUndefined();
    });

    it('bounds: one caller past its share, then everyone past the total', async () => {
      expect(await one.create(task('a1', 'a'), BOUNDS)).toBe(true);
      expect(await two.create(task('a2', 'a'), BOUNDS)).toBe(true);
      expect(await one.create(task('a3', 'a'), BOUNDS)).toBe(false);
      expect(await two.create(task('b1', 'b'), BOUNDS)).toBe(true);
      expect(await one.create(task('c1', 'c'), BOUNDS)).toBe(true);
      expect(await two.create(task('d1', 'd'), BOUNDS)).toBe(false);
      expect(await one.get('a3')).toBeUndefined();
    });

    it('a task is forgotten at its TTL, and its place is free again', async () => {
      expect(await one.create(task('short', 'a', 30), { ...BOUNDS, maxTasksPerPrincipal: 1 })).toBe(
        true,
      );
      await gone(two, 'short');
      expect(await two.create(task('next', 'a'), { ...BOUNDS, maxTasksPerPrincipal: 1 })).toBe(
        true,
      );
    });

    it('a change applies only from the statuses it names; a final status is never left', async () => {
      await one.create(task('t', 'a'), BOUNDS);
      const asked = { method: 'roots/list', params: {} };
      const waiting = await two.update(
        't',
        { status: 'input_required', inputRequests: { 'roots-0': asked } },
        ['working'],
      );
      expect(waiting).toMatchObject({
        status: 'input_required',
        inputRequests: { 'roots-0': asked },
      });
      expect(await one.update('t', { status: 'working' }, ['working'])).toBeUndefined();
      const done = await one.update('t', { status: 'completed', result: { content: [] } }, [
        'working',
        'input_required',
      ]);
      // What the change names is replaced: the questions are gone, the result is there.
      expect(done).toMatchObject({ status: 'completed', result: { content: [] } });
      expect(done).not.toHaveProperty('inputRequests');
      expect(await two.update('t', { status: 'cancelled' }, ['working', 'input_required'])).toBe(
        undefined,
      );
      expect(await two.get('t')).toMatchObject({ status: 'completed', result: { content: [] } });
      expect(await one.update('gone', { status: 'working' }, ['working'])).toBeUndefined();
    });

    it('two holders changing one task at once: exactly one wins each step', async () => {
      await one.create(task('race', 'a'), BOUNDS);
      const outcomes = await Promise.all([
        one.update('race', { status: 'completed', result: { by: 1 } }, ['working']),
        two.update('race', { status: 'cancelled' }, ['working']),
      ]);
      expect(outcomes.filter((outcome) => outcome !== undefined)).toHaveLength(1);
      const final = await one.get('race');
      expect(final?.status).toBe(outcomes.find((outcome) => outcome)!.status);
    });

    it('running() lists the tasks still running, oldest first', async () => {
      await one.create(task('r1', 'a'), BOUNDS);
      await one.create(task('r2', 'b'), BOUNDS);
      await one.update('r1', { status: 'completed', result: {} }, ['working']);
      expect((await two.running!(10)).map((running) => running.taskId)).toEqual(['r2']);
    });
  });
}

storeContract('in-memory', async () => {
  const store = new MemoryTaskStore();
  return [store, store];
});

describeWithService(await findService(TEST_REDIS_URL), 'the Redis task store', (redisUrl) => {
  let prefix: string;
  const connections: Redis[] = [];
  afterEach(async () => {
    for (const connection of connections.splice(0)) connection.disconnect();
    await deleteKeys(redisUrl, prefix);
  });
  storeContract('Redis', async () => {
    prefix = uniquePrefix();
    const keys = new ClusterKeys(prefix);
    const [a, b] = [new Redis(redisUrl), new Redis(redisUrl)];
    connections.push(a, b);
    return [new RedisTaskStore(a, keys), new RedisTaskStore(b, keys)];
  });
});
