import { SERVER_NAME_ATTRIBUTE } from '../core/servers/server-attribute.js';

/**
 * Names from the OpenTelemetry semantic conventions for MCP (gen-ai `mcp.md`,
 * status: development) and the few of our own, under `mcp_warden.*`, for what
 * the conventions do not cover (the seams, approvals, live counts).
 */
export const INSTRUMENTATION_SCOPE = 'mcp-warden';

export const ATTR = {
  /** Which of the app's servers served it (its `name`): several servers share one meter. */
  serverName: SERVER_NAME_ATTRIBUTE,
  methodName: 'mcp.method.name',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  resourceUri: 'mcp.resource.uri',
  sessionId: 'mcp.session.id',
  protocolVersion: 'mcp.protocol.version',
  requestId: 'jsonrpc.request.id',
  networkTransport: 'network.transport',
  networkProtocolName: 'network.protocol.name',
  networkProtocolVersion: 'network.protocol.version',
  clientAddress: 'client.address',
  clientPort: 'client.port',
  errorType: 'error.type',
  statusCode: 'rpc.response.status_code',
  seam: 'mcp_warden.seam',
  decision: 'mcp_warden.decision',
  decisionName: 'mcp_warden.name',
  reason: 'mcp_warden.reason',
  principal: 'mcp_warden.principal',
  approvalOutcome: 'mcp_warden.approval.outcome',
} as const;

export const METRIC = {
  operationDuration: 'mcp.server.operation.duration',
  sessionDuration: 'mcp.server.session.duration',
  seamDecisions: 'mcp_warden.seam.decisions',
  approvalOutcomes: 'mcp_warden.approval.outcomes',
  connections: 'mcp_warden.connections',
  inFlight: 'mcp_warden.requests.in_flight',
  pendingClientRequests: 'mcp_warden.client_requests.pending',
  parkedApprovals: 'mcp_warden.approvals.parked',
} as const;

/** The span event each seam decision adds to its request's span. */
export const DECISION_EVENT = 'mcp_warden.seam.decision';

/** The conventions' advice for both duration histograms (seconds). */
export const DURATION_BUCKETS = [
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
] as const;

/** `gen_ai.operation.name` of a tool call (the conventions' well-known value). */
export const EXECUTE_TOOL = 'execute_tool';

/** `error.type` of a `CallToolResult` with `isError: true` (the conventions' value). */
export const TOOL_ERROR = 'tool_error';

/**
 * Longest string attribute taken from a request (tool and prompt names,
 * resource URIs): the client chose them, so a span never carries more.
 */
export const MAX_ATTRIBUTE_CHARS = 256;
