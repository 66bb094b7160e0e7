import { Module, type DynamicModule } from '@nestjs/common';
import { MCP_LIMITS } from '../../limits/mcp-limits.interface.js';
import { MCP_MODULE_OPTIONS } from '../../mcp.module-definition.js';
import { McpServerModule } from '../../server/mcp-server.module.js';
import { McpHttpBootCheck } from './http-boot.check.js';
import { MCP_HTTP_OPTIONS, resolveHttpOptions } from './http-options.js';
import { McpLegacySseController } from './legacy/legacy-sse.controller.js';
import { LegacySseSessions } from './legacy/legacy-sse.sessions.service.js';
import { McpOriginGuard } from './security/origin.guard.js';
import { McpHttpSessions } from './session/http-sessions.service.js';
import { McpEndpointInstaller } from './streamable/endpoint.installer.js';
import { McpStreamableHttpEndpoint } from './streamable/streamable-http.endpoint.js';

/**
 * The HTTP transports: Streamable HTTP at `http.path` (served in front of
 * the router, see `McpEndpointInstaller`) and the older HTTP+SSE pair at
 * `/sse` + `/messages` (a controller), behind Origin/Host validation and the
 * network boot guard. `McpModule.forRoot({ transport: 'http' })` imports it. Create the
 * app with `{ bodyParser: false }` so bodies are read with this module's limit.
 */
@Module({})
export class McpHttpModule {
  static register(): DynamicModule {
    return {
      module: McpHttpModule,
      imports: [McpServerModule],
      controllers: [McpLegacySseController],
      providers: [
        {
          provide: MCP_HTTP_OPTIONS,
          useFactory: resolveHttpOptions,
          inject: [MCP_MODULE_OPTIONS, MCP_LIMITS],
        },
        McpHttpSessions,
        LegacySseSessions,
        McpOriginGuard,
        McpStreamableHttpEndpoint,
        McpEndpointInstaller,
        McpHttpBootCheck,
      ],
      exports: [McpHttpSessions, LegacySseSessions],
    };
  }
}
