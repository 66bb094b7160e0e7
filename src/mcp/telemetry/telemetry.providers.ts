import type { Provider } from '@nestjs/common';
import { MCP_APPROVAL_TELEMETRY } from '../approvals/approval-wait.js';
import { MCP_DECISION_TELEMETRY } from '../authorization/audit/decision-telemetry.interface.js';
import { MCP_DISPATCH_TELEMETRY } from '../engine/dispatch/dispatch-telemetry.interface.js';
import { McpTelemetry } from './mcp-telemetry.service.js';
import { McpRegistryNames } from './registered-names.js';

/**
 * Traces and metrics through the OpenTelemetry API (no SDK of our own). `McpTelemetry` provides
 * the telemetry ports the engine, the audit and approvals declare (docs/architecture.md).
 */
export const TELEMETRY_PROVIDERS: Provider[] = [
  McpTelemetry,
  McpRegistryNames,
  { provide: MCP_DISPATCH_TELEMETRY, useExisting: McpTelemetry },
  { provide: MCP_DECISION_TELEMETRY, useExisting: McpTelemetry },
  { provide: MCP_APPROVAL_TELEMETRY, useExisting: McpTelemetry },
];
