import type { Provider, Type } from '@nestjs/common';
import { MCP_SHARED_STORES, type McpSharedStores } from '../stores/shared-stores.interface.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import { ConsoleAuditPages } from './console-audit.service.js';
import { ConsoleBodyReader } from './console-body.reader.js';
import { ConsoleCookieSealer } from './console-cookie.sealer.js';
import { ConsoleDecisions } from './console-decisions.service.js';
import { ConsoleEventsHub } from './console-events.hub.js';
import { ConsoleHistory } from './console-history.ring.js';
import { ConsoleOidcClient } from './console-oidc.client.js';
import { ConsoleSessionRecheck } from './console-session.recheck.js';
import { ConsoleSessions } from './console-session.service.js';
import { MCP_CONSOLE_SESSION_STORE } from './console-session-store.interface.js';
import { consoleSettingsOf } from './console-settings.js';
import { ConsoleSignIn } from './console-sign-in.service.js';
import { ConsoleEndpoint } from './console.endpoint.js';
import {
  MAX_SESSIONS,
  MAX_SESSIONS_PER_OPERATOR,
  MCP_CONSOLE_SETTINGS,
} from './console.constants.js';
import { MemoryConsoleSessionStore } from './memory-console-session.store.js';
import { McpConsoleRoutes } from './console.routes.js';

/** The parts an HTTP transport is made of (see `httpTransport`). */
interface TransportParts {
  providers: Provider[];
  controllers: Type[];
}

/**
 * Adds the operator console (docs/operator-approvals.md) to the HTTP transport's parts: providers
 * only. Its routes are mounted on the adapter at init, and only when `approvals.console.oidc` is
 * set (see `McpConsoleRoutes`); its services then wait for the first operator. Sessions live in
 * memory, or in Redis in cluster mode so that every instance ends them together.
 */
export function withOperatorConsole<T extends TransportParts>(parts: T): T {
  return {
    ...parts,
    providers: [
      ...parts.providers,
      {
        provide: MCP_CONSOLE_SETTINGS,
        useFactory: consoleSettingsOf,
        inject: [MCP_OPTIONS],
      },
      {
        provide: MCP_CONSOLE_SESSION_STORE,
        useFactory: (shared: McpSharedStores | null) => {
          const bounds = { maxSessions: MAX_SESSIONS, maxPerOperator: MAX_SESSIONS_PER_OPERATOR };
          return shared?.consoleSessionStore(bounds) ?? new MemoryConsoleSessionStore(bounds);
        },
        inject: [MCP_SHARED_STORES],
      },
      ConsoleCookieSealer,
      ConsoleOidcClient,
      ConsoleSessionRecheck,
      ConsoleSessions,
      ConsoleSignIn,
      ConsoleEventsHub,
      ConsoleHistory,
      ConsoleDecisions,
      ConsoleAuditPages,
      ConsoleBodyReader,
      ConsoleEndpoint,
      McpConsoleRoutes,
    ],
  };
}
