import type {
  McpTaskCluster,
  McpTaskClusterMessage,
} from '../revisions/2026-07-28/tasks/task-cluster.interface.js';
import type { McpTaskStore } from '../revisions/2026-07-28/tasks/task-store.interface.js';
import type { McpClusterBus } from './cluster-bus.js';
import { RedisTaskStore } from './redis-task.store.js';

/**
 * The tasks' view of the cluster (`MCP_TASK_CLUSTER`): the Redis task store, this instance's
 * name, the liveness of the others (a runner whose key expired has died), and the tasks
 * channel every instance hears.
 */
export class McpClusterTasks implements McpTaskCluster {
  private readonly taskStore: RedisTaskStore;
  private readonly drains: (() => Promise<void>)[] = [];

  constructor(private readonly bus: McpClusterBus) {
    this.taskStore = new RedisTaskStore(bus.command, bus.keys);
  }

  get instance(): string {
    return this.bus.instance;
  }

  store(): McpTaskStore {
    return this.taskStore;
  }

  isAlive(instance: string): Promise<boolean> {
    return this.bus.isAlive(instance);
  }

  beforeClose(drain: () => Promise<void>): void {
    this.drains.push(drain);
  }

  /** Finishes what must be written before the bus closes (McpClusterShutdown calls it). */
  async drain(): Promise<void> {
    await Promise.all(this.drains.map((drain) => drain().catch(() => undefined)));
  }

  watch(instance: string, onDead: () => void): () => void {
    return this.bus.watch(instance, onDead);
  }

  publish(message: McpTaskClusterMessage): void {
    this.bus.publishOn(this.bus.keys.tasksChannel, message);
  }

  hear(handler: (message: McpTaskClusterMessage) => void): Promise<void> {
    return this.bus.listen(this.bus.keys.tasksChannel, (raw) => {
      let message: McpTaskClusterMessage;
      try {
        message = JSON.parse(raw) as McpTaskClusterMessage;
      } catch {
        return; // not ours to read
      }
      handler(message);
    });
  }
}
