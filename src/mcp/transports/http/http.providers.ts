import type { Provider, Type } from '@nestjs/common';
import { McpHttpAuthenticator } from '../../authentication/http-authenticator.service.js';
import { MCP_HTTP_MOUNTED, MCP_OPTIONS } from '../../core/options/options.constants.js';
import { McpHttpBootCheck } from './http-boot.check.js';
import { MCP_HTTP_SETTINGS, httpSettingsOf } from './http-settings.js';
import { SsePairEndpoint } from './sse-2024-11-05/sse-pair.endpoint.js';
import { SsePairSessions } from './sse-2024-11-05/sse-pair.sessions.service.js';
import { createMcpHttpControllers } from './mount/mcp-http.controllers.js';
import { bindControllerPaths } from './mount/mcp-http.routes.js';
import { McpHttpRouter } from './mount/mcp-http.router.js';
import { McpRouteBinder } from './mount/mcp-route.binder.js';
import { McpCallRateLimiter } from './security/call-rate.limiter.js';
import { McpHttpGate } from './security/http-gate.service.js';
import { McpHttpSessions } from './session/http-sessions.service.js';
import { McpStreamableHttpEndpoint } from './streamable/streamable-http.endpoint.js';
import { McpModernHttpPost } from './modern/modern-post.service.js';
import { McpBodyReader } from '../../core/http/body-reader.service.js';
import { WEBHOOK_PROVIDERS } from '../../approvals/webhook/webhook.providers.js';
import { withOperatorConsole } from '../../approvals/console/console.providers.js';

/** What `transport: 'http'` adds to the MCP module. */
export interface McpHttpTransportParts {
  providers: Provider[];
  controllers: Type[];
  exports: (string | Type)[];
}

/**
 * The HTTP transports: Streamable HTTP at `http.path` and the older HTTP+SSE
 * pair at `sse` + `messages`, as Nest routes, behind the Host/Origin gate and
 * the network boot check. Each MCP module gets its own controller classes,
 * whose routes carry its server's `routeId`.
 */
export function httpTransport(routeId: string): McpHttpTransportParts {
  const controllers = createMcpHttpControllers(routeId);
  return withOperatorConsole({
    controllers: [controllers.streamable, controllers.ssePair],
    providers: [
      { provide: MCP_HTTP_SETTINGS, useFactory: httpSettingsOf, inject: [MCP_OPTIONS] },
      {
        provide: 'McpWarden:http-routes',
        useFactory: (settings) => bindControllerPaths(controllers, settings),
        inject: [MCP_HTTP_SETTINGS],
      },
      { provide: MCP_HTTP_MOUNTED, useValue: true },
      McpHttpAuthenticator,
      McpHttpGate,
      McpCallRateLimiter,
      McpHttpSessions,
      SsePairSessions,
      McpStreamableHttpEndpoint,
      McpModernHttpPost,
      McpBodyReader,
      SsePairEndpoint,
      McpHttpRouter,
      McpRouteBinder,
      McpHttpBootCheck,
      ...WEBHOOK_PROVIDERS,
    ],
    // The gate is shared with application routes that `@McpHttpAuth()` puts behind it.
    exports: [McpHttpSessions, SsePairSessions, McpHttpGate],
  });
}
