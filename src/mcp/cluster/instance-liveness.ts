import type { Redis } from 'ioredis';
import type { ClusterKeys } from './cluster-keys.js';
import { setBounded } from '../core/common/bounded-map.js';

/** How often an instance renews its liveness key, and how long the key outlives a renewal. */
export const HEARTBEAT_MS = 1_000;
export const ALIVE_TTL_MS = 3_000;
/** Instances remembered as alive or dead. */
const MAX_REMEMBERED = 1_000;

/**
 * What one instance knows of the others' lives: a liveness key per instance, which its
 * heartbeat renews and which expires when it dies. Answers are remembered for a heartbeat, and
 * the instances whose work this one waits for are watched: each heartbeat reads their keys, and
 * one whose key is gone is dead.
 */
export class InstanceLiveness {
  private readonly watchers = new Map<string, Set<() => void>>();
  /** When instances were last seen beating, and last found dead. */
  private readonly seenAlive = new Map<string, number>();
  private readonly dead = new Map<string, number>();

  constructor(
    private readonly keys: ClusterKeys,
    private readonly command: Redis,
  ) {}

  /**
   * Whether `instance` beats. An answer is kept for a heartbeat (a request to an instance that
   * died meanwhile still ends: the bus watches it).
   */
  async isAlive(instance: string): Promise<boolean> {
    const now = Date.now();
    const dead = this.dead.get(instance);
    if (dead !== undefined && now - dead < HEARTBEAT_MS) return false;
    const seen = this.seenAlive.get(instance);
    if (seen !== undefined && now - seen < HEARTBEAT_MS) return true;
    const alive = (await this.command.exists(this.keys.alive(instance))) === 1;
    remember(alive ? this.seenAlive : this.dead, instance, Date.now());
    return alive;
  }

  /** Calls `onDead` once `instance` is found dead (checked every heartbeat); returns the unwatch. */
  watch(instance: string, onDead: () => void): () => void {
    let set = this.watchers.get(instance);
    if (!set) this.watchers.set(instance, (set = new Set()));
    set.add(onDead);
    return () => {
      set.delete(onDead);
      if (set.size === 0 && this.watchers.get(instance) === set) this.watchers.delete(instance);
    };
  }

  /** Reads the watched instances' keys, and tells the watchers of each one found dead. */
  async checkWatched(): Promise<void> {
    const watched = [...this.watchers.keys()];
    if (watched.length === 0) return;
    const alive = await this.command.mget(...watched.map((instance) => this.keys.alive(instance)));
    watched.forEach((instance, index) => {
      if (alive[index] !== null) return;
      this.seenAlive.delete(instance);
      remember(this.dead, instance, Date.now());
      const set = this.watchers.get(instance);
      this.watchers.delete(instance);
      for (const onDead of set ?? []) onDead();
    });
  }
}

/** Bounded memory of instances (the oldest forgotten first). */
function remember(map: Map<string, number>, instance: string, at: number): void {
  setBounded(map, instance, at, MAX_REMEMBERED);
}
