import { Inject, Injectable, Optional, type OnModuleDestroy, type Provider } from '@nestjs/common';
import {
  MCP_SHARED_STORES,
  type McpSharedStores,
} from '../approvals/stores/shared-stores.interface.js';
import { MCP_OPTIONS } from '../core/options/options.constants.js';
import type { McpCoreSettings } from '../core/options/core-settings.interface.js';
import {
  MCP_NOTIFICATION_RELAY,
  type McpNotificationRelay,
} from '../engine/notification-relay.interface.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../transports/http/http-settings.js';
import { McpHttpSessions } from '../transports/http/session/http-sessions.service.js';
import { McpWarden } from '../engine/mcp-warden.service.js';
import { MCP_SESSION_DIRECTORY } from '../transports/http/session/session-directory.interface.js';
import { MCP_SESSION_RELAY } from '../transports/http/session/session-relay.interface.js';
import { McpClusterBus } from './cluster-bus.js';
import { MCP_CLUSTER_BUS, MCP_CLUSTER_DIRECTORY } from './cluster.constants.js';
import { McpClusterInbox } from './cluster-inbox.service.js';
import { McpClusterRelay } from './cluster-relay.service.js';
import { RedisCallRate } from './redis-quota.js';
import { MCP_SHARED_CALL_RATE } from '../transports/http/security/shared-call-rate.interface.js';
import { RedisSessionDirectory } from './redis-session.directory.js';
import { RedisSharedStores } from './redis-shared.stores.js';
import {
  MCP_CLUSTER_CHECKPOINTS,
  type McpClusterCheckpoints,
} from '../audit/publishers/cluster-checkpoints.interface.js';
import { McpCheckpointPublishers } from '../audit/publishers/mcp-checkpoint-publishers.js';
import { ClusterKeys } from './cluster-keys.js';
import { McpClusterTasks } from './cluster-tasks.js';
import {
  MCP_TASK_CLUSTER,
  type McpTaskCluster,
} from '../revisions/2026-07-28/tasks/task-cluster.interface.js';

/** Closes the instance's Redis connections when the app closes (its liveness key goes at once). */
@Injectable()
export class McpClusterShutdown implements OnModuleDestroy {
  constructor(
    @Optional() @Inject(MCP_CLUSTER_BUS) private readonly bus: McpClusterBus | null,
    @Optional() @Inject(MCP_TASK_CLUSTER) private readonly tasks: McpClusterTasks | null,
  ) {}

  async onModuleDestroy(): Promise<void> {
    // The tasks running here are written failed first, on the connection about to close.
    await this.tasks?.drain();
    await this.bus?.close();
  }
}

/**
 * Cluster mode's parts. Each resolves to null without `cluster`, so the
 * in-memory defaults stay in charge and `ioredis` is never imported. The
 * stores are not provided here: each store's own layer provides its port once
 * and takes the shared implementation from `MCP_SHARED_STORES` when there is one.
 */
export const CLUSTER_PROVIDERS: Provider[] = [
  {
    provide: MCP_CLUSTER_BUS,
    useFactory: async (options: McpCoreSettings) =>
      options.cluster
        ? McpClusterBus.connect({
            ...options.cluster,
            // A forwarded POST carries one body, a relayed event one result at most: twice
            // either (JSON escaped inside the envelope can double), plus the envelope.
            maxMessageBytes:
              2 * Math.max(options.limits.maxBodyBytes, options.limits.maxResultBytes) + 64 * 1024,
          })
        : null,
    inject: [MCP_OPTIONS],
  },
  McpClusterShutdown,
  {
    provide: MCP_SHARED_STORES,
    useFactory: (bus: McpClusterBus | null): McpSharedStores | null =>
      bus && new RedisSharedStores(bus),
    inject: [MCP_CLUSTER_BUS],
  },
  {
    // The audit's signed checkpoints go to the cluster's Redis unless the app names a place. On
    // a connection of their own, opened at the first checkpoint: the bus closes before the
    // journal signs its last one at shutdown.
    provide: MCP_CLUSTER_CHECKPOINTS,
    useFactory: ({ cluster }: McpCoreSettings): McpClusterCheckpoints =>
      cluster
        ? McpCheckpointPublishers.redis({
            url: cluster.redisUrl,
            key: new ClusterKeys(cluster.keyPrefix).auditCheckpoints,
          })
        : null,
    inject: [MCP_OPTIONS],
  },
  {
    provide: MCP_TASK_CLUSTER,
    useFactory: (bus: McpClusterBus | null): McpTaskCluster | null =>
      bus && new McpClusterTasks(bus),
    inject: [MCP_CLUSTER_BUS],
  },
  {
    provide: MCP_NOTIFICATION_RELAY,
    useFactory: (bus: McpClusterBus | null): McpNotificationRelay | null =>
      bus && {
        relay: (method, params) => bus.broadcast(method, params),
        hear: (deliver) => bus.hear(deliver),
      },
    inject: [MCP_CLUSTER_BUS],
  },
];

/**
 * Cluster mode's HTTP parts: the shared session directory, the relay, the
 * owner's inbox and the shared call-rate buckets.
 */
export const CLUSTER_HTTP_PROVIDERS: Provider[] = [
  {
    provide: MCP_SHARED_CALL_RATE,
    useFactory: (bus: McpClusterBus | null) => bus && new RedisCallRate(bus.command, bus.keys),
    inject: [MCP_CLUSTER_BUS],
  },
  {
    provide: MCP_CLUSTER_DIRECTORY,
    useFactory: (bus: McpClusterBus | null, settings: McpHttpSettings) =>
      bus && new RedisSessionDirectory(bus, settings),
    inject: [MCP_CLUSTER_BUS, MCP_HTTP_SETTINGS],
  },
  { provide: MCP_SESSION_DIRECTORY, useExisting: MCP_CLUSTER_DIRECTORY },
  {
    provide: MCP_SESSION_RELAY,
    useFactory: (
      bus: McpClusterBus | null,
      directory: RedisSessionDirectory | null,
      settings: McpHttpSettings,
    ) => bus && directory && new McpClusterRelay(bus, directory, settings),
    inject: [MCP_CLUSTER_BUS, MCP_CLUSTER_DIRECTORY, MCP_HTTP_SETTINGS],
  },
  {
    provide: McpClusterInbox,
    useFactory: (...args: ConstructorParameters<typeof McpClusterInbox>) =>
      args[0] && args[1] ? new McpClusterInbox(...args) : null,
    inject: [MCP_CLUSTER_BUS, MCP_CLUSTER_DIRECTORY, McpHttpSessions, McpWarden],
  },
];
