import type { McpNonceStore } from '../../core/stores/nonce-store.interface.js';
import type { McpNonceStoreBounds } from '../../core/stores/nonce-store.bounds.js';
import type { McpApprovalStore } from './approval-store.interface.js';
import type { McpApprovalStoreBounds } from './memory-approval.store.js';
import type {
  ConsoleSessionBounds,
  McpConsoleSessionStore,
} from '../console/console-session-store.interface.js';

/**
 * The stores every instance shares (cluster mode's, in Redis). Each store port is provided
 * once, by its own layer, and asks this for the shared implementation before falling back to
 * memory; so the choice never depends on which provider array is listed last.
 */
export interface McpSharedStores {
  /** The single-use nonces of `requestState` and of the webhook (`MCP_NONCE_STORE`). */
  nonceStore(bounds: McpNonceStoreBounds): McpNonceStore;
  /** The operator asks (`MCP_APPROVAL_STORE`); resolves once it hears every instance. */
  approvalStore(bounds: McpApprovalStoreBounds): Promise<McpApprovalStore>;
  /** The operator console's sign-ins (`MCP_CONSOLE_SESSION_STORE`). */
  consoleSessionStore(bounds: ConsoleSessionBounds): McpConsoleSessionStore;
}

/** DI token of the shared stores: null without `cluster`, and the stores stay in memory. */
export const MCP_SHARED_STORES = 'McpWarden:sharedStores';
