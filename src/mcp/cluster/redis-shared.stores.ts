import type { McpNonceStoreBounds } from '../core/stores/nonce-store.bounds.js';
import type { McpSharedStores } from '../approvals/stores/shared-stores.interface.js';
import type { McpApprovalStoreBounds } from '../approvals/stores/memory-approval.store.js';
import type { ConsoleSessionBounds } from '../approvals/console/console-session-store.interface.js';
import type { McpClusterBus } from './cluster-bus.js';
import { RedisApprovalStore } from './redis-approval.store.js';
import { RedisConsoleSessionStore } from './redis-console-session.store.js';
import { RedisNonceStore } from './redis-nonce.store.js';

/**
 * Cluster mode's stores, on the instance's bus. Built only when a port asks, so an app
 * without the operator console never loads the console's scripts into Redis.
 */
export class RedisSharedStores implements McpSharedStores {
  constructor(private readonly bus: McpClusterBus) {}

  nonceStore(bounds: McpNonceStoreBounds): RedisNonceStore {
    return new RedisNonceStore(this.bus.command, this.bus.keys, bounds);
  }

  approvalStore(bounds: McpApprovalStoreBounds): Promise<RedisApprovalStore> {
    return RedisApprovalStore.open(this.bus, bounds);
  }

  consoleSessionStore(bounds: ConsoleSessionBounds): RedisConsoleSessionStore {
    return new RedisConsoleSessionStore(this.bus.command, this.bus.keys.prefix, bounds);
  }
}
