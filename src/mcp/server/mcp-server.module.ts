import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpAuthorizerModule } from '../authorizer/mcp-authorizer.module.js';
import { ProviderMethodScanner } from '../discovery/provider-method.scanner.js';
import { McpRegistryModule } from '../registry/mcp-registry.module.js';
import { McpApprovals } from './approval/mcp-approvals.service.js';
import { McpConnections } from './connection/mcp-connections.service.js';
import { McpDispatcher } from './dispatch/mcp-dispatcher.service.js';
import { McpMethodExplorer } from './dispatch/mcp-method.explorer.js';
import { McpNotificationsHandler } from './dispatch/mcp-notifications.handler.js';
import { McpCompletionHandler } from './handlers/completion.handler.js';
import { McpLifecycleHandler } from './handlers/lifecycle.handler.js';
import { McpPageSize } from './handlers/page-size.provider.js';
import { McpPromptsHandler } from './handlers/prompts.handler.js';
import { McpResourcesHandler } from './handlers/resources.handler.js';
import { McpToolsHandler } from './handlers/tools.handler.js';
import { McpWarden } from './mcp-warden.service.js';
import { McpOutboundRequests } from './outbound/mcp-outbound-requests.service.js';
import { McpToolInvoker } from './tools/tool-invoker.service.js';

/** Transport-agnostic dispatch of the MCP method surface, behind the seams. */
@Module({
  imports: [DiscoveryModule, McpRegistryModule, McpAuthorizerModule],
  providers: [
    McpWarden,
    McpConnections,
    McpDispatcher,
    McpMethodExplorer,
    ProviderMethodScanner,
    McpNotificationsHandler,
    McpToolInvoker,
    McpOutboundRequests,
    McpApprovals,
    McpPageSize,
    McpLifecycleHandler,
    McpToolsHandler,
    McpResourcesHandler,
    McpPromptsHandler,
    McpCompletionHandler,
  ],
  exports: [McpWarden],
})
export class McpServerModule {}
