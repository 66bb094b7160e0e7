import type { RequestId } from '../../core/protocol/jsonrpc.js';
import type { McpConnection } from '../connection/mcp-connection.js';
import type {
  McpOutboundRequests,
  OutboundRequestOptions,
} from '../outbound/mcp-outbound-requests.service.js';
import type { McpDispatchOutcome } from './dispatch-outcome.js';
import type { McpMessageOrigin } from './message-origin.interface.js';

/**
 * What the dispatcher tells telemetry: a port, provided by `telemetry/` (`McpTelemetry`), so
 * the engine runs each request inside its span without importing the layer above it. Each
 * method runs the work it is given even when nothing records.
 */
export interface McpDispatchTelemetry {
  /** Serves one request inside its server span. */
  request(
    id: RequestId,
    method: string,
    params: unknown,
    connection: McpConnection,
    origin: McpMessageOrigin,
    run: () => Promise<McpDispatchOutcome>,
  ): Promise<McpDispatchOutcome>;
  /** Handles one client notification inside its span. */
  notification(
    method: string,
    params: unknown,
    connection: McpConnection,
    origin: McpMessageOrigin,
    handle: () => void,
  ): void;
  /** Sends one request to the client inside a client span. */
  clientRequest(
    outbound: Pick<McpOutboundRequests, 'request'>,
    connection: McpConnection,
    method: string,
    params: object,
    options: OutboundRequestOptions,
  ): Promise<unknown>;
  /** A parked call's answer, as it goes out (before its outcome settles). */
  answeredLater(connection: McpConnection, id: RequestId, answer: unknown): void;
}

/** DI token of the dispatch telemetry. */
export const MCP_DISPATCH_TELEMETRY = Symbol('McpWarden:dispatch-telemetry');
