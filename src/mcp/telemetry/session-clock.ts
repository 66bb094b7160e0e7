import type { Attributes, Histogram } from '@opentelemetry/api';
import type { McpConnection } from '../engine/connection/mcp-connection.js';
import type { McpMessageOrigin } from '../engine/dispatch/message-origin.interface.js';
import type { McpOperationOutcome } from './operation-outcome.js';
import { transportAttributes } from './request-attributes.js';
import { ATTR } from './telemetry.constants.js';

/**
 * `mcp.server.session.duration`: a session starts with a successful
 * `initialize` and ends when its connection closes (DELETE, idle expiry, the
 * pipe ending, shutdown). The modern era has no sessions, so nothing is
 * timed there. Each connection is timed once, whatever the client resends.
 */
export class McpSessionClock {
  private readonly timed = new WeakSet<McpConnection>();

  constructor(
    private readonly histogram: Histogram,
    private readonly server: Attributes = {},
  ) {}

  started(
    connection: McpConnection,
    origin: McpMessageOrigin,
    outcome: McpOperationOutcome | undefined,
  ): void {
    if (outcome?.errorType !== undefined || this.timed.has(connection)) return;
    this.timed.add(connection);
    const start = performance.now();
    const attributes = { ...this.server, ...transportAttributes(origin) };
    connection.onClose(() => {
      if (connection.protocolVersion !== undefined) {
        attributes[ATTR.protocolVersion] = connection.protocolVersion;
      }
      this.histogram.record((performance.now() - start) / 1000, attributes);
    });
  }
}
