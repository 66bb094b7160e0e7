import { trace } from '@opentelemetry/api';
import type { RequestId } from '../protocol/jsonrpc.js';

/**
 * What a log line about one request carries besides its text, so a log
 * collector can join it to the request's audit events and its trace. Passed
 * as a plain object after the message: Nest's JSON logger prints it as fields
 * (`flattenParams` puts them at the top level, as the service does).
 * @publicApi
 */
export interface McpLogFields {
  readonly connId: string;
  readonly requestId: RequestId;
  /** The W3C trace id of the request's span, when an OpenTelemetry SDK records it. */
  readonly traceId?: string;
}

/**
 * The fields of a log line about `request`. The trace id is the active
 * span's: the server runs each request inside its span, so it is found here
 * without a lookup (and is absent when no SDK records).
 */
export function requestLogFields(request: {
  readonly id: RequestId;
  readonly connection: { readonly id: string };
}): McpLogFields {
  const span = trace.getActiveSpan()?.spanContext();
  return span && trace.isSpanContextValid(span)
    ? { connId: request.connection.id, requestId: request.id, traceId: span.traceId }
    : { connId: request.connection.id, requestId: request.id };
}
