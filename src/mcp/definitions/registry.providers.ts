import type { Provider } from '@nestjs/common';
import { ProviderMethodScanner } from './discovery/provider-method.scanner.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { McpExplorer } from './mcp.explorer.js';
import { McpRegistry } from './mcp-registry.service.js';

/** Tool, resource and prompt definitions, discovered from decorators or added at runtime. */
export const REGISTRY_PROVIDERS: Provider[] = [
  McpRegistry,
  McpMetadataAccessor,
  McpExplorer,
  ProviderMethodScanner,
];
