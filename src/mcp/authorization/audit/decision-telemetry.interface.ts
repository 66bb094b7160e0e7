import type { McpSeamRequest } from '../seam-request.interface.js';
import type { McpAuditEvent, McpAuditSeam } from './mcp-audit-event.interface.js';

/**
 * What the audit tells telemetry about a decision: a port, provided by `telemetry/`
 * (`McpTelemetry`), so authorization records spans and metrics without importing it.
 */
export interface McpDecisionTelemetry {
  /** One seam decision (or approval outcome): counted, and an event on the request's span. */
  decision(
    request: McpSeamRequest,
    seam: McpAuditSeam,
    name: string,
    decision: McpAuditEvent['decision'],
    detail: string | undefined,
  ): void;
  /** The trace id of the request's span, when one records. */
  traceIdOf(request: McpSeamRequest): string | undefined;
}

/** DI token of the decision telemetry. */
export const MCP_DECISION_TELEMETRY = Symbol('McpWarden:decision-telemetry');
