import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ClusterKeys } from './cluster-keys.js';
import type {
  ClusterAnswer,
  ClusterEvent,
  ClusterInboxMessage,
  ClusterNotification,
  ClusterOperation,
  ClusterReply,
  ClusterRequest,
} from './cluster-messages.js';
import { openRedis, type McpRedisConnections } from './redis-connection.js';
import { ALIVE_TTL_MS, HEARTBEAT_MS, InstanceLiveness } from './instance-liveness.js';
import { ClusterStoreHealth, STORE_UNREACHABLE } from './store-health.js';
import { withFields } from '../core/common/with-fields.js';

/** A forwarded operation the owner has not answered by then fails (503). */
const REQUEST_TIMEOUT_MS = 10_000;
/** Forwarded operations awaiting a reply, and streams served for other instances' sessions. */
const MAX_PENDING = 10_000;
/** What a forwarded operation its owner did not acknowledge in time is told. */
const UNANSWERED = 'Service Unavailable: the instance holding the session did not answer';
/** What a forwarded operation is told when the store dropped before its acknowledgement came. */
const STORE_DROPPED = 'Service Unavailable: the cluster store dropped before the holder answered';
/** What a request for a session whose instance died is told. */
export const INSTANCE_GONE = 'Session not found: the server instance that held it has stopped';

export interface ClusterBusSettings {
  redisUrl: string;
  keyPrefix: string;
  /** Inbox messages larger than this are dropped (a forwarded body is bounded by maxBodyBytes). */
  maxMessageBytes: number;
}

/**
 * One instance's link to the others: its identity and heartbeat, request and
 * reply over Redis pub/sub (each instance subscribes to its own inbox), the
 * events of streams it relays for other instances' sessions, notifications
 * for everyone, and a watch on instances whose work it waits for (their
 * liveness key expiring is their death).
 */
export class McpClusterBus {
  readonly instance = randomBytes(9).toString('base64url');
  readonly keys: ClusterKeys;
  /** Whether the store answers; what the instance registers there is written again when it is back. */
  readonly health: ClusterStoreHealth;
  private readonly logger = new Logger('McpCluster');
  private readonly replies = new Map<string, (reply: ClusterReply) => void>();
  private readonly tails = new Map<string, (event: ClusterEvent) => void>();
  private readonly liveness: InstanceLiveness;
  private onRequest: (request: ClusterRequest) => void = () => undefined;
  private onNotification: (method: string, params?: object) => void = () => undefined;
  /** Handlers of the extra channels a store listens on (operator ask events). */
  private readonly channels = new Map<string, (raw: string) => void>();
  private heartbeat?: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly redis: McpRedisConnections,
    private readonly settings: ClusterBusSettings,
  ) {
    this.keys = new ClusterKeys(settings.keyPrefix);
    this.liveness = new InstanceLiveness(this.keys, redis.command);
    this.health = new ClusterStoreHealth(redis, this.logger);
    // First when the store is back: the others must find this instance alive before they find
    // its sessions again.
    this.health.reassert(() => this.beat(true));
    // An acknowledgement published into the outage may be lost, or may arrive once the store is
    // back, after the relay already ended what it relayed: settled now, a late one is ignored.
    this.health.onLost(() => this.abandonPending(STORE_DROPPED));
  }

  static async connect(settings: ClusterBusSettings): Promise<McpClusterBus> {
    const bus = new McpClusterBus(await openRedis(settings.redisUrl), settings);
    // A start Redis refuses (a subscribe its ACL forbids, the first heartbeat) fails the boot;
    // the two connections are closed first, or they would hold the process.
    await bus.start().catch(async (error: unknown) => {
      await bus.close();
      throw error;
    });
    return bus;
  }

  /** The command connection, for the stores that share it. */
  get command() {
    return this.redis.command;
  }

  private async start(): Promise<void> {
    const { subscriber } = this.redis;
    subscriber.on('message', (channel: string, raw: string) => this.receive(channel, raw));
    await subscriber.subscribe(this.keys.inbox(this.instance), this.keys.broadcast);
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Who serves forwarded operations on this instance (the session owner side). */
  serve(handler: (request: ClusterRequest) => void): void {
    this.onRequest = handler;
  }

  /** Who delivers other instances' notifications to this instance's clients. */
  hear(handler: (method: string, params?: object) => void): void {
    this.onNotification = handler;
  }

  /**
   * Hears `channel` on the instance's subscriber (a store's events, e.g.
   * operator asks): every instance, this one included, gets what is
   * published there. Messages larger than the bus's bound are dropped.
   */
  async listen(channel: string, handler: (raw: string) => void): Promise<void> {
    this.channels.set(channel, handler);
    await this.redis.subscriber.subscribe(channel);
  }

  /** Publishes `message` (JSON) on `channel`, for `listen`ers on every instance. */
  publishOn(channel: string, message: object): void {
    this.publish(channel, message);
  }

  /**
   * Sends `operation` to `instance` and resolves to its reply; a refusal
   * (503) when no reply comes in time or too many are outstanding, and a
   * refusal marked `gone` (404) when the instance dies first. Events of
   * the stream it opens arrive at `onEvent`, which stays registered until
   * `endTail(corr)` (so none can arrive before it is listened for).
   */
  async request(
    instance: string,
    operation: ClusterOperation,
    onEvent?: (event: ClusterEvent) => void,
  ): Promise<{ reply: ClusterReply; corr: string }> {
    if (this.replies.size >= MAX_PENDING || this.tails.size >= MAX_PENDING) {
      return {
        reply: refusal('', 503, 'Service Unavailable: too many forwarded requests'),
        corr: '',
      };
    }
    // Not sent into an outage: it is refused, not of unknown outcome.
    if (!this.health.reachable) {
      return { reply: refusal('', 503, STORE_UNREACHABLE), corr: '' };
    }
    const corr = randomBytes(9).toString('base64url');
    if (onEvent) this.tails.set(corr, onEvent);
    const reply = await new Promise<ClusterReply>((resolve) => {
      const settle = (answer: ClusterReply) => {
        clearTimeout(timer);
        unwatch();
        this.replies.delete(corr);
        resolve(answer);
      };
      // Sent, but never acknowledged: the owner may have run it all the same.
      const timer = setTimeout(
        () => settle(refusal(corr, 503, UNANSWERED, true)),
        REQUEST_TIMEOUT_MS,
      );
      timer.unref();
      const unwatch = this.watch(instance, () =>
        settle({ t: 'r', c: corr, ok: false, status: 404, message: INSTANCE_GONE, gone: true }),
      );
      this.replies.set(corr, settle);
      const request: ClusterRequest = withFields(operation, {
        t: 'q',
        c: corr,
        f: this.instance,
      } as const);
      this.publish(this.keys.inbox(instance), request);
    });
    if (!reply.ok) this.tails.delete(corr);
    return { reply, corr };
  }

  /** Sends `operation` to `instance` expecting no reply. */
  send(instance: string, operation: ClusterOperation): void {
    const request: ClusterRequest = withFields(operation, {
      t: 'q',
      c: '',
      f: this.instance,
    } as const);
    this.publish(this.keys.inbox(instance), request);
  }

  /** Stops relaying events for `corr`. */
  endTail(corr: string): void {
    this.tails.delete(corr);
  }

  /** Answers a forwarded operation. */
  reply(request: ClusterRequest, reply: ClusterAnswer): void {
    this.publish(
      this.keys.inbox(request.f),
      withFields(reply, { t: 'r', c: request.c } as const) as ClusterReply,
    );
  }

  /** Pushes one event (or the end) of a stream another instance relays. */
  push(instance: string, event: ClusterEvent): void {
    this.publish(this.keys.inbox(instance), event);
  }

  /** Sends a notification to every other instance. */
  broadcast(method: string, params?: object): void {
    const notification: ClusterNotification = { t: 'n', f: this.instance, m: method, p: params };
    this.publish(this.keys.broadcast, notification);
  }

  /** Whether `instance` beats (instance-liveness.ts); this one always does. */
  isAlive(instance: string): Promise<boolean> {
    return instance === this.instance ? Promise.resolve(true) : this.liveness.isAlive(instance);
  }

  /** Calls `onDead` once `instance` is found dead (checked every heartbeat); returns the unwatch. */
  watch(instance: string, onDead: () => void): () => void {
    return this.liveness.watch(instance, onDead);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.health.stop();
    clearInterval(this.heartbeat);
    this.abandonPending('Service Unavailable: shutting down');
    // Leaving at once tells the others now, not when the key expires.
    await this.redis.command.del(this.keys.alive(this.instance)).catch(() => undefined);
    await this.redis.close();
  }

  /** Renews the liveness key and checks the instances watched (`rethrow`: for the recovery). */
  private async beat(rethrow = false): Promise<void> {
    if (this.closed) return;
    const { command } = this.redis;
    try {
      await command.set(this.keys.alive(this.instance), '1', 'PX', ALIVE_TTL_MS);
      this.health.succeeded();
      // Right after the store came back, a missing key may be an instance not yet back.
      if (this.health.settling || !this.health.reachable) return;
      await this.liveness.checkWatched();
    } catch (error) {
      // Logged once per outage, by the health.
      this.health.failed((error as Error).message);
      if (rethrow) throw error;
    }
  }

  /** Settles every forwarded operation still awaiting its reply: sent, it may run all the same. */
  private abandonPending(message: string): void {
    for (const settle of [...this.replies.values()]) settle(refusal('', 503, message, true));
  }

  private publish(channel: string, message: object): void {
    this.redis.command
      .publish(channel, JSON.stringify(message))
      .catch((error: Error) => this.health.failed(error.message));
  }

  private receive(channel: string, raw: string): void {
    if (raw.length > this.settings.maxMessageBytes) return;
    const listener = this.channels.get(channel);
    if (listener) return listener(raw);
    let message: ClusterInboxMessage | ClusterNotification;
    try {
      message = JSON.parse(raw) as ClusterInboxMessage | ClusterNotification;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    if (channel === this.keys.broadcast) {
      if (message.t === 'n' && message.f !== this.instance && typeof message.m === 'string') {
        this.onNotification(message.m, message.p);
      }
      return;
    }
    switch (message.t) {
      case 'q':
        return this.onRequest(message);
      case 'r':
        return this.replies.get(message.c)?.(message);
      case 'e':
      case 'x':
        return this.tails.get(message.c)?.(message);
    }
  }
}

/** A refusal made here (`unknown`: the operation was sent, and may have run). */
function refusal(corr: string, status: number, message: string, unknown?: true): ClusterReply {
  return { t: 'r', c: corr, ok: false, status, message, ...(unknown && { unknown }) };
}
