/*
 * MCP Warden's public API. Application code imports from here only; what
 * tests need beyond it is in `mcp-warden/testing`. Everything exported here is
 * tagged `@publicApi` at its declaration, and `public-api.spec.ts` pins the list.
 */

// Module and options
export { McpModule, type McpModuleAsyncOptions } from './mcp/mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp/mcp.module-definition.js';
export type {
  McpModuleOptions,
  McpHttpOptions,
  McpClusterOptions,
} from './mcp/options/mcp-options.interface.js';
export { DEFAULT_CONN_ID, MCP_CONTEXT_TYPE } from './mcp/mcp.constants.js';
export { DEFAULT_LIMITS } from './mcp/limits/default-limits.js';
export type { McpLimits, ResolvedMcpLimits } from './mcp/limits/mcp-limits.interface.js';

// Identity and authorization
export type { McpPrincipal } from './mcp/auth/principal.interface.js';
export type { McpBearerAuthOptions, McpAuthenticate } from './mcp/auth/auth-options.interface.js';
export { principalFromEnv } from './mcp/auth/principal-from-env.js';
export { samePrincipal, type McpPrincipalIdentity } from './mcp/auth/principal-identity.js';
export { Authorizers } from './mcp/authorizer/authorizers.js';
export type {
  Authorizer,
  AuthorizerContext,
  AuthorizerDecision,
  AuthorizerPurpose,
  AuthorizerSource,
  McpTransportKind,
} from './mcp/authorizer/authorizer.interface.js';
export type {
  McpAuditEvent,
  McpAuditSeam,
} from './mcp/authorizer/audit/mcp-audit-event.interface.js';
export type { McpToolDenial } from './mcp/authorizer/tool-denial.js';

// Definitions
export { McpTool } from './mcp/registry/decorators/mcp-tool.decorator.js';
export { McpResource } from './mcp/registry/decorators/mcp-resource.decorator.js';
export { McpResourceTemplate } from './mcp/registry/decorators/mcp-resource-template.decorator.js';
export { McpPrompt } from './mcp/registry/decorators/mcp-prompt.decorator.js';
export { McpRegistry, type McpListKind } from './mcp/registry/mcp-registry.service.js';
export type * from './mcp/registry/interfaces/tool.interface.js';
export type * from './mcp/registry/interfaces/resource.interface.js';
export type * from './mcp/registry/interfaces/prompt.interface.js';
export type * from './mcp/registry/interfaces/mcp-context.interface.js';
export type * from './mcp/display/display.interface.js';

// The server
export { McpWarden, type McpServerStats } from './mcp/server/mcp-warden.service.js';
export type { McpMessageOrigin } from './mcp/server/dispatch/message-origin.interface.js';
export type { McpDispatchOutcome } from './mcp/server/dispatch/dispatch-outcome.js';
export { McpExecutionContext } from './mcp/pipeline/mcp-execution-context.js';
export type { McpServerInfo } from './mcp/display/server-info.factory.js';

// Talking to clients outside a request
export { McpClientEvents } from './mcp/client-events/mcp-client-events.service.js';
export type { McpRootsListChangedEvent } from './mcp/client-events/roots-list-changed.event.js';
export { McpUrlElicitations } from './mcp/elicitation/mcp-url-elicitations.service.js';
export type * from './mcp/elicitation/url-elicitation.interface.js';

// Errors
export { McpWardenError } from './mcp/errors/mcp-warden.error.js';
export {
  McpInvalidRequestError,
  McpMethodNotFoundError,
  McpInvalidParamsError,
  McpResourceNotFoundError,
  McpTooManyRequestsError,
} from './mcp/errors/protocol.errors.js';
export {
  McpUrlElicitationRequiredError,
  type McpUrlElicitation,
} from './mcp/errors/url-elicitation-required.error.js';
export { McpReadDeniedError } from './mcp/authorizer/read-denied.error.js';
export { McpToolError } from './mcp/server/tools/mcp-tool.error.js';
export {
  McpDefinitionError,
  McpUnguardedSensitiveToolsError,
} from './mcp/registry/registry.errors.js';
export { JsonRpcErrorCode } from './mcp/protocol/error-codes.constants.js';

// Protocol
export {
  SUPPORTED_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  type ProtocolVersion,
} from './mcp/protocol/protocol-version.js';
export type * from './mcp/protocol/mcp-types.js';
export type { RequestId, JsonRpcMessage } from './mcp/protocol/jsonrpc.js';
export type { MaybePromise } from './mcp/common/maybe-promise.js';

// The modern era (2026-07-28)
export {
  MODERN_PROTOCOL_VERSION,
  SUPPORTED_MODERN_PROTOCOL_VERSIONS,
  type McpEra,
} from './mcp/era/era.constants.js';
export {
  McpHeaderMismatchError,
  McpMissingClientCapabilityError,
  McpUnsupportedProtocolVersionError,
} from './mcp/era/era.errors.js';
export { McpInputRequiredError } from './mcp/era/mrtr/input-required.error.js';
export { MCP_NONCE_STORE, type McpNonceStore } from './mcp/era/mrtr/nonce-store.interface.js';

// Four-eyes approvals (docs/operator-approvals.md)
export {
  MCP_APPROVAL_STORE,
  type McpApprovalStore,
  type McpOperatorAskPage,
} from './mcp/operator/approval-store.interface.js';
export type {
  McpApprovalsConsoleOptions,
  McpApprovalsOptions,
  McpApprovalsWebhookOptions,
} from './mcp/operator/approvals-options.interface.js';
export {
  APPROVAL_PENDING_META,
  type McpApprovalPending,
  type McpApprovalPendingDenial,
} from './mcp/operator/approval-pending.result.js';
export { argumentPreview, type McpArgumentPreviewBounds } from './mcp/operator/argument-preview.js';
export type {
  McpOperatorAsk,
  McpOperatorAskCaller,
  McpOperatorAskEvent,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from './mcp/operator/operator-ask.interface.js';
export {
  MCP_OPERATOR_DESK,
  type McpOperatorDesk,
  type McpOperatorDeskProblem,
} from './mcp/operator/operator-desk.interface.js';

// Transports
export { McpHttpAuth } from './mcp/transports/http/security/mcp-http-auth.guard.js';
export { serveStdio, type McpServeStdioOptions } from './mcp/transports/stdio/stdio.bootstrap.js';
export {
  McpStdioTransport,
  type McpStdioTransportOptions,
} from './mcp/transports/stdio/stdio.transport.js';
export { StderrLogger } from './mcp/transports/stdio/stderr.logger.js';

// Approvals webhook: what a receiver verifies and reads
export {
  verifyWebhookSignature,
  type VerifyWebhookSignatureInput,
} from './mcp/operator/webhook/webhook-signature.js';
export type { McpWebhookNotice } from './mcp/operator/webhook/webhook-notice.js';

// Deprecated names, kept for one release
export { McpServer, McpError } from './mcp/deprecated.js';
