import type { McpRequest } from '../engine/dispatch/mcp-request.interface.js';

/** One approval being waited for; `end` closes it with the verdict's detail. */
export interface McpApprovalWait {
  /** `params` with the wait's trace context in `_meta`, so the client's handling joins the trace. */
  carrying(params: object): object;
  end(approved: boolean, detail: string): void;
}

/**
 * Where an approval's wait is traced: a port, provided by `telemetry/` (`McpTelemetry`), so
 * approvals open their span without importing the layer above them.
 */
export interface McpApprovalTelemetry {
  /** Opens the child span that covers one approval wait for `tool`; end it with the verdict. */
  approvalWait(request: McpRequest, tool: string): McpApprovalWait;
}

/** DI token of the approval telemetry. */
export const MCP_APPROVAL_TELEMETRY = Symbol('McpWarden:approval-telemetry');
