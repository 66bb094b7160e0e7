import { Module } from '@nestjs/common';
import { McpAuthorizerModule } from './authorizer/mcp-authorizer.module.js';
import { MCP_MODULE_OPTIONS, McpConfigurableModuleClass } from './mcp.module-definition.js';
import { McpRegistryModule } from './registry/mcp-registry.module.js';
import { McpServerModule } from './server/mcp-server.module.js';

/**
 * The MCP Warden framework: registry, authorization seams and server.
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
  // The options are exported so the feature modules (and the app) can inject them.
  exports: [MCP_MODULE_OPTIONS, McpRegistryModule, McpServerModule],
})
export class McpModule extends McpConfigurableModuleClass {}
