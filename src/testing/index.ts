/*
 * `mcp-warden/testing`: what tests of an MCP Warden app use. A typed
 * in-process client that talks to the app's `McpWarden` as a transport
 * would (acting as any principal, answering approvals), a helper that boots
 * a testing app, and the internals tests may inspect.
 */
export { McpTestClient, type McpAppContext } from './client/mcp-test-client.js';
export { McpTestClientError } from './client/mcp-test-client.error.js';
export type {
  McpApprovalAnswer,
  McpApprovalHandler,
  McpApprovalRequest,
  McpClientRequestHandler,
  McpClientRequests,
  McpTestClientOptions,
} from './client/mcp-test-client.options.js';
export type * from './client/mcp-test-client.types.js';
export { createMcpTestingApp } from './create-mcp-testing-app.js';
export { runPolicyCases } from './run-policy-cases.js';
export type {
  McpPolicyCase,
  McpPolicyCaseResult,
} from '../mcp/policy/cases/policy-case.interface.js';
export * from './internals.js';
