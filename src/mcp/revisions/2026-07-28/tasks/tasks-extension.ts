import type { McpRequest } from '../../../engine/dispatch/mcp-request.interface.js';
import { McpMissingClientCapabilityError } from '../../../core/protocol/era.errors.js';

/** The tasks extension's identifier (SEP-2663): its capability key and reserved label. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Whether this request declares the tasks extension: modern era only, in the request's own
 * capabilities (never inferred from earlier requests), as an object.
 */
export function declaresTasks(request: Pick<McpRequest, 'era' | 'clientCapabilities'>): boolean {
  if (request.era !== 'modern') return false;
  const extensions = (request.clientCapabilities as { extensions?: Record<string, unknown> })
    ?.extensions;
  const declared = extensions?.[TASKS_EXTENSION];
  return typeof declared === 'object' && declared !== null && !Array.isArray(declared);
}

/** -32021, naming the extension the request did not declare. */
export function tasksExtensionRequired(): McpMissingClientCapabilityError {
  return new McpMissingClientCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
}
