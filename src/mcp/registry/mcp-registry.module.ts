import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ProviderMethodScanner } from '../discovery/provider-method.scanner.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { McpExplorer } from './mcp.explorer.js';
import { McpRegistry } from './mcp-registry.service.js';

/** Tool, resource and prompt definitions, discovered from decorators or added at runtime. */
@Module({
  imports: [DiscoveryModule],
  providers: [McpRegistry, McpMetadataAccessor, McpExplorer, ProviderMethodScanner],
  exports: [McpRegistry],
})
export class McpRegistryModule {}
