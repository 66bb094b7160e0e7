import { Module, type DynamicModule } from '@nestjs/common';
import { McpAuthorizerModule } from './authorizer/mcp-authorizer.module.js';
import {
  MCP_MODULE_OPTIONS,
  McpConfigurableModuleClass,
  type MCP_OPTIONS_TYPE,
} from './mcp.module-definition.js';
import { MCP_LIMITS, resolveLimits } from './limits/mcp-limits.interface.js';
import type { McpModuleOptions } from './mcp-options.interface.js';
import { McpRegistryModule } from './registry/mcp-registry.module.js';
import { McpServerModule } from './server/mcp-server.module.js';
import { McpHttpModule } from './transports/http/mcp-http.module.js';

/**
 * The MCP Warden framework: registry, authorization seams and server.
 * `transport: 'http'` also mounts the HTTP transports (with `forRootAsync`,
 * import `McpHttpModule.register()` next to it instead).
 *
 * @example
 * @Module({
 *   imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0', authorizer, readAuthorizer })],
 *   providers: [NotesTools],
 * })
 * export class AppModule {}
 */
@Module({
  imports: [McpRegistryModule, McpAuthorizerModule, McpServerModule],
  providers: [
    {
      provide: MCP_LIMITS,
      useFactory: (options: McpModuleOptions) => resolveLimits(options.limits),
      inject: [MCP_MODULE_OPTIONS],
    },
  ],
  // The options and limits are exported so the feature modules (and the app) can inject them.
  exports: [MCP_MODULE_OPTIONS, MCP_LIMITS, McpRegistryModule, McpServerModule],
})
export class McpModule extends McpConfigurableModuleClass {
  static override forRoot(options: typeof MCP_OPTIONS_TYPE): DynamicModule {
    const module = super.forRoot(options);
    if (options.transport !== 'http') return module;
    return {
      ...module,
      imports: [...(module.imports ?? []), McpHttpModule.register()],
    };
  }
}
