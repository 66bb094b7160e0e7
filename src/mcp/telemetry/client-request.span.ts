import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { McpConnection } from '../engine/connection/mcp-connection.js';
import type {
  McpOutboundRequests,
  OutboundRequestOptions,
} from '../engine/outbound/mcp-outbound-requests.service.js';
import { McpOutboundRequestError } from '../engine/outbound/outbound-request.errors.js';
import { ATTR } from './telemetry.constants.js';
import { carryingContext } from './trace-context.js';

/**
 * Sends one server→client request inside a CLIENT span, a child of `parent` (the span of the
 * request that made it), with the span's context in the request's `_meta` so the client's
 * handling joins the trace. Nothing recording, it is sent as it is.
 */
export function tracedClientRequest(
  tracer: Tracer,
  parent: Span | undefined,
  outbound: Pick<McpOutboundRequests, 'request'>,
  connection: McpConnection,
  method: string,
  params: object,
  options: OutboundRequestOptions,
): Promise<unknown> {
  const active = parent ? trace.setSpan(context.active(), parent) : context.active();
  const span = tracer.startSpan(
    method,
    { kind: SpanKind.CLIENT, attributes: { [ATTR.methodName]: method } },
    active,
  );
  if (!span.isRecording()) return outbound.request(connection, method, params, options);
  const carried = carryingContext(params, span, active);
  return outbound.request(connection, method, carried, options).then(
    (result) => {
      span.end();
      return result;
    },
    (error: unknown) => {
      const type = error instanceof McpOutboundRequestError ? error.reason : '_OTHER';
      span.setAttribute(ATTR.errorType, type);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      span.end();
      throw error;
    },
  );
}
