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
export { DEFAULT_CONN_ID, MCP_CONTEXT_TYPE } from './mcp/core/mcp.constants.js';
export { DEFAULT_LIMITS } from './mcp/core/limits/default-limits.js';
export type { McpLimits, ResolvedMcpLimits } from './mcp/core/limits/mcp-limits.interface.js';

// Identity and authorization
export type { McpPrincipal } from './mcp/authentication/principal.interface.js';
export type {
  McpBearerAuthOptions,
  McpAuthenticate,
} from './mcp/authentication/auth-options.interface.js';
export { principalFromEnv } from './mcp/authentication/principal-from-env.js';
export type { McpTokenExchangeOptions } from './mcp/authentication/token-exchange/token-exchange.options.js';
export type {
  McpCredentials,
  McpExchangedToken,
  McpExchangeRequest,
} from './mcp/authentication/token-exchange/credentials.interface.js';
export { McpTokenExchangeError } from './mcp/authentication/token-exchange/token-exchange.error.js';
export {
  samePrincipal,
  type McpPrincipalIdentity,
} from './mcp/authentication/principal-identity.js';
export { Authorizers } from './mcp/authorization/authorizers.js';
export type {
  Authorizer,
  AuthorizerContext,
  AuthorizerDecision,
  AuthorizerPurpose,
  AuthorizerSource,
  McpTransportKind,
} from './mcp/authorization/authorizer.interface.js';
export type {
  McpAuditEvent,
  McpAuditKind,
  McpAuditOutcome,
  McpAuditSeam,
} from './mcp/authorization/audit/mcp-audit-event.interface.js';
export type { McpAuditOrigin } from './mcp/authorization/audit/audit-origin.js';

// Audit records and their proof (docs/audit.md)
export { McpAuditSinks } from './mcp/audit/mcp-audit-sinks.js';
export { McpCheckpointPublishers } from './mcp/audit/publishers/mcp-checkpoint-publishers.js';
export type {
  McpCheckpointRedisOptions,
  McpCheckpointWebhookOptions,
} from './mcp/audit/publishers/mcp-checkpoint-publishers.js';
export type { McpAuditEntry, McpAuditSink } from './mcp/audit/audit-sink.interface.js';
export type {
  McpAuditCheckpoint,
  McpAuditOptions,
  McpCheckpointPublisher,
} from './mcp/audit/audit-options.interface.js';
export type {
  McpAuditChainLink,
  McpAuditCheckpointRecord,
  McpAuditRecord,
} from './mcp/audit/chain/audit-record.js';
export { auditEventJson } from './mcp/audit/chain/record-line.js';
export type { McpJsonlSinkOptions } from './mcp/audit/sinks/jsonl-file.sink.js';
export type { McpSqlSinkOptions } from './mcp/audit/sinks/sql-table.sink.js';
export type { McpSqliteSinkOptions } from './mcp/audit/sinks/sqlite-worker.sink.js';
export type { McpToolDenial } from './mcp/authorization/tool-denial.js';
export type { McpPolicyTrace } from './mcp/authorization/seam-policy.interface.js';

// Policy as code (docs/policy.md)
export { McpPolicies } from './mcp/policy/mcp-policies.js';
export { McpPolicy } from './mcp/policy/mcp-policy.service.js';
export { McpPolicyError } from './mcp/policy/policy.errors.js';
export type {
  McpCedarCall,
  McpCedarEntity,
  McpCedarPolicyOptions,
  McpCedarTemplateLink,
  McpCedarUid,
  McpPolicyConfig,
  McpPolicySource,
  McpPolicySources,
} from './mcp/policy/policy-options.interface.js';
export type { McpPolicyReloadResult } from './mcp/policy/cedar/cedar-policy.engine.js';

// Definitions
export { McpTool } from './mcp/definitions/decorators/mcp-tool.decorator.js';
export { McpResource } from './mcp/definitions/decorators/mcp-resource.decorator.js';
export { McpResourceTemplate } from './mcp/definitions/decorators/mcp-resource-template.decorator.js';
export { McpPrompt } from './mcp/definitions/decorators/mcp-prompt.decorator.js';
export { McpRegistry, type McpListKind } from './mcp/definitions/mcp-registry.service.js';
export {
  InjectMcpRegistry,
  getMcpRegistryToken,
} from './mcp/definitions/inject-mcp-registry.decorator.js';
export type { McpServerMembership } from './mcp/definitions/interfaces/server-membership.interface.js';
export type * from './mcp/definitions/interfaces/tool.interface.js';
export type { McpStandardSchema } from './mcp/definitions/schema/standard-schema.js';
export type * from './mcp/definitions/interfaces/resource.interface.js';
export type * from './mcp/definitions/interfaces/prompt.interface.js';
export type * from './mcp/definitions/interfaces/mcp-context.interface.js';
export type * from './mcp/definitions/metadata-fields/display.interface.js';

// The server
export { McpWarden, type McpServerStats } from './mcp/engine/mcp-warden.service.js';
export { InjectMcpWarden, getMcpWardenToken } from './mcp/engine/inject-mcp-warden.decorator.js';
export type { McpMessageOrigin } from './mcp/engine/dispatch/message-origin.interface.js';
export type { McpDispatchOutcome } from './mcp/engine/dispatch/dispatch-outcome.js';
export { McpExecutionContext } from './mcp/definitions/pipeline/mcp-execution-context.js';
export type { McpServerInfo } from './mcp/definitions/metadata-fields/server-info.factory.js';

// Talking to clients outside a request
export { McpClientEvents } from './mcp/engine/client-events/mcp-client-events.service.js';
export type { McpRootsListChangedEvent } from './mcp/engine/client-events/roots-list-changed.event.js';
export { McpUrlElicitations } from './mcp/engine/elicitation/mcp-url-elicitations.service.js';
export type * from './mcp/definitions/interfaces/url-elicitation.interface.js';

// Errors
export { McpWardenError } from './mcp/core/errors/mcp-warden.error.js';
export {
  McpInvalidRequestError,
  McpMethodNotFoundError,
  McpInvalidParamsError,
  McpResourceNotFoundError,
  McpTooManyRequestsError,
} from './mcp/core/errors/protocol.errors.js';
export {
  McpUrlElicitationRequiredError,
  type McpUrlElicitation,
} from './mcp/core/errors/url-elicitation-required.error.js';
export { McpReadDeniedError } from './mcp/authorization/read-denied.error.js';
export { McpToolError } from './mcp/core/errors/mcp-tool.error.js';
export {
  McpDefinitionError,
  McpUnguardedSensitiveToolsError,
} from './mcp/definitions/registry.errors.js';
export { JsonRpcErrorCode } from './mcp/core/protocol/error-codes.constants.js';

// Protocol
export {
  SUPPORTED_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  type ProtocolVersion,
} from './mcp/core/protocol/protocol-version.js';
export type * from './mcp/core/protocol/mcp-types.js';
export type { RequestId, JsonRpcMessage } from './mcp/core/protocol/jsonrpc.js';
export type { MaybePromise } from './mcp/core/common/maybe-promise.js';

// The modern era (2026-07-28)
export {
  MODERN_PROTOCOL_VERSION,
  SUPPORTED_MODERN_PROTOCOL_VERSIONS,
  type McpEra,
} from './mcp/core/protocol/era.constants.js';
export {
  McpHeaderMismatchError,
  McpMissingClientCapabilityError,
  McpUnsupportedProtocolVersionError,
} from './mcp/core/protocol/era.errors.js';
export { McpInputRequiredError } from './mcp/core/multi-round-trip/input-required.error.js';
export { MCP_NONCE_STORE, type McpNonceStore } from './mcp/core/stores/nonce-store.interface.js';

// Tasks: long-running tools as durable tasks (docs/tasks.md, SEP-2663)
export type { McpTasksOptions } from './mcp/revisions/2026-07-28/tasks/tasks-options.interface.js';
export {
  MCP_TASK_STORE,
  type McpTaskBounds,
  type McpTaskStore,
} from './mcp/revisions/2026-07-28/tasks/task-store.interface.js';
export type {
  McpTask,
  McpTaskChange,
  McpTaskInputRequest,
  McpTaskStatus,
} from './mcp/revisions/2026-07-28/tasks/task.interface.js';
export { MemoryTaskStore } from './mcp/revisions/2026-07-28/tasks/memory-task.store.js';

// Approvals: the caller's and four-eyes (docs/approvals.md, docs/operator-approvals.md);
// the webhook's signature check and notice are what a receiver verifies and reads.
export {
  MCP_APPROVAL_STORE,
  type McpApprovalStore,
  type McpOperatorAskPage,
  type McpApprovalsConsoleOptions,
  type McpApprovalsOptions,
  type McpApprovalsWebhookOptions,
  APPROVAL_PENDING_META,
  type McpApprovalPending,
  type McpApprovalPendingDenial,
  argumentPreview,
  type McpArgumentPreviewBounds,
  type McpOperatorAsk,
  type McpOperatorAskCaller,
  type McpOperatorAskEvent,
  type McpOperatorAskRecord,
  type McpOperatorDecision,
  MCP_OPERATOR_DESK,
  type McpOperatorDesk,
  type McpOperatorDeskProblem,
  verifyWebhookSignature,
  type VerifyWebhookSignatureInput,
  type McpWebhookNotice,
} from './mcp/approvals/index.js';

// Transports
export { McpHttpAuth } from './mcp/transports/http/security/mcp-http-auth.guard.js';
export { serveStdio, type McpServeStdioOptions } from './mcp/transports/stdio/stdio.bootstrap.js';
export {
  McpStdioTransport,
  type McpStdioTransportOptions,
} from './mcp/transports/stdio/stdio.transport.js';
export { StderrLogger } from './mcp/transports/stdio/stderr.logger.js';

// Deprecated names, kept for one release
export { McpServer, McpError } from './mcp/deprecated.js';
