import type { Provider } from '@nestjs/common';
import { McpConnections } from './connection/mcp-connections.service.js';
import { McpDispatcher } from './dispatch/mcp-dispatcher.service.js';
import { McpMethodExplorer } from './dispatch/mcp-method.explorer.js';
import { McpNotificationsHandler } from './dispatch/mcp-notifications.handler.js';
import { McpParamsShapeCheck } from './dispatch/params-shape.check.js';
import { McpCompletionHandler } from './handlers/completion.handler.js';
import { McpLifecycleHandler } from './handlers/lifecycle.handler.js';
import { McpPromptsHandler } from './handlers/prompts.handler.js';
import { McpResourcesHandler } from './handlers/resources.handler.js';
import { McpToolsHandler } from './handlers/tools.handler.js';
import { McpWarden } from './mcp-warden.service.js';
import { McpOutboundRequests } from './outbound/mcp-outbound-requests.service.js';
import { McpToolInvoker } from './tools/tool-invoker.service.js';
import { McpCallerCredentials } from './context/caller-credentials.js';
import { McpTokenExchanger } from '../authentication/token-exchange/token-exchanger.service.js';

/** Transport-agnostic dispatch of the MCP method surface, behind the seams. */
export const SERVER_PROVIDERS: Provider[] = [
  McpWarden,
  McpConnections,
  McpDispatcher,
  McpMethodExplorer,
  McpNotificationsHandler,
  McpParamsShapeCheck,
  McpToolInvoker,
  McpCallerCredentials,
  // Beside the HTTP transport's settings where there are some; on stdio it says why it cannot work.
  McpTokenExchanger,
  McpOutboundRequests,
  McpLifecycleHandler,
  McpToolsHandler,
  McpResourcesHandler,
  McpPromptsHandler,
  McpCompletionHandler,
];
