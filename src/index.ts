/*
 * MCP Warden's public API. Application code imports from here only.
 */
export { McpModule } from './mcp/mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp/mcp.module-definition.js';
export type { McpModuleOptions, McpHttpOptions } from './mcp/mcp-options.interface.js';
export { DEFAULT_CONN_ID, MCP_CONTEXT_TYPE } from './mcp/mcp.constants.js';

export { Authorizers } from './mcp/authorizer/authorizers.js';
export type {
  Authorizer,
  AuthorizerContext,
  AuthorizerDecision,
  AuthorizerSource,
  McpTransportKind,
} from './mcp/authorizer/authorizer.interface.js';
export type {
  McpAuditEvent,
  McpAuditSeam,
} from './mcp/authorizer/audit/mcp-audit-event.interface.js';
export { ToolSeam, ReadSeam } from './mcp/authorizer/seam.decorators.js';
export { ToolSeamGuard } from './mcp/authorizer/tool-seam.guard.js';
export { ReadSeamGuard } from './mcp/authorizer/read-seam.guard.js';
export {
  McpReadDeniedError,
  McpToolDeniedException,
  McpToolApprovalRequiredException,
  type McpToolDenial,
} from './mcp/authorizer/authorization.exceptions.js';

export { McpTool } from './mcp/registry/decorators/mcp-tool.decorator.js';
export { McpResource } from './mcp/registry/decorators/mcp-resource.decorator.js';
export { McpResourceTemplate } from './mcp/registry/decorators/mcp-resource-template.decorator.js';
export { McpPrompt } from './mcp/registry/decorators/mcp-prompt.decorator.js';
export { McpRegistry, type McpListKind } from './mcp/registry/mcp-registry.service.js';
export {
  McpDefinitionError,
  McpUnguardedSensitiveToolsError,
} from './mcp/registry/registry.errors.js';
export type * from './mcp/registry/interfaces/tool.interface.js';
export type * from './mcp/registry/interfaces/resource.interface.js';
export type * from './mcp/registry/interfaces/prompt.interface.js';
export type * from './mcp/registry/interfaces/mcp-context.interface.js';

export { McpServer, type McpServerStats } from './mcp/server/mcp.server.js';
export {
  DEFAULT_LIMITS,
  MCP_LIMITS,
  type McpLimits,
  type ResolvedMcpLimits,
} from './mcp/limits/mcp-limits.interface.js';
export { McpToolError } from './mcp/server/tools/mcp-tool.error.js';
export type { McpRequest } from './mcp/server/dispatch/mcp-request.interface.js';

export { McpError } from './mcp/protocol/mcp.errors.js';
export { JsonRpcErrorCode } from './mcp/protocol/error-codes.constants.js';
export { relatedRequestOf } from './mcp/protocol/related-request.js';
export {
  SUPPORTED_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
} from './mcp/protocol/protocol-version.js';
export type * from './mcp/protocol/mcp-types.js';

export { serveStdio } from './mcp/transports/stdio/stdio.bootstrap.js';
export {
  McpStdioTransport,
  type McpStdioTransportOptions,
} from './mcp/transports/stdio/stdio.transport.js';
export { StderrLogger } from './mcp/transports/stdio/stderr.logger.js';

export { McpHttpModule } from './mcp/transports/http/mcp-http.module.js';
export { McpHttpSessions } from './mcp/transports/http/session/http-sessions.service.js';
