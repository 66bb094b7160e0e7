import type { Provider } from '@nestjs/common';
import {
  MCP_SHARED_STORES,
  type McpSharedStores,
} from '../../approvals/stores/shared-stores.interface.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../authentication/authentication-settings.interface.js';
import { MCP_MODERN_REVISION } from '../../engine/dispatch/modern-revision.interface.js';
import { McpDiscoverHandler } from './discover.handler.js';
import { McpModernDispatch } from './modern-dispatch.service.js';
import { McpModernEra } from './modern-era.service.js';
import { McpInputRounds } from './multi-round-trip/input-rounds.service.js';
import { MemoryNonceStore } from '../../core/stores/memory-nonce.store.js';
import { MCP_NONCE_STORE } from '../../core/stores/nonce-store.interface.js';
import { nonceStoreBoundsOf } from '../../core/stores/nonce-store.bounds.js';
import { McpRequestStateSealer } from './multi-round-trip/request-state.sealer.js';
import { McpListeners } from './listen/mcp-listeners.service.js';
import { McpListenHandler } from './listen/listen.handler.js';
import { TASKS_PROVIDERS } from './tasks/tasks.providers.js';

/** The modern era (2026-07-28): its own methods, its results, and its multi round-trip state. */
export const ERA_PROVIDERS: Provider[] = [
  McpModernEra,
  McpModernDispatch,
  { provide: MCP_MODERN_REVISION, useExisting: McpModernDispatch },
  McpInputRounds,
  McpRequestStateSealer,
  {
    provide: MCP_NONCE_STORE,
    // The option wins, then cluster mode's shared store, then memory.
    useFactory: (options: McpAuthenticationSettings, shared: McpSharedStores | null) => {
      const bounds = nonceStoreBoundsOf(options.limits);
      return options.nonceStore ?? shared?.nonceStore(bounds) ?? new MemoryNonceStore(bounds);
    },
    inject: [MCP_OPTIONS, MCP_SHARED_STORES],
  },
  McpDiscoverHandler,
  McpListeners,
  McpListenHandler,
  ...TASKS_PROVIDERS,
];
