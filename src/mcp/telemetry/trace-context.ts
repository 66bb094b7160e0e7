import {
  context,
  propagation,
  SpanKind,
  trace,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { metaGetter, metaOf } from './meta.getter.js';

/**
 * Starts the SERVER span of a message from the client (a request or a
 * notification). The conventions: the context in `params._meta` is the
 * parent, and the ambient one (an HTTP server span, say) is linked when
 * there is one. Returns the span and the parent to run its work under.
 */
export function startServerSpan(
  tracer: Tracer,
  name: string,
  params: unknown,
): { span: Span; parent: Context } {
  const ambient = context.active();
  const meta = metaOf(params);
  const parent = meta ? propagation.extract(ambient, meta, metaGetter) : ambient;
  const span = tracer.startSpan(
    name,
    { kind: SpanKind.SERVER, links: ambientLink(parent, ambient) },
    parent,
  );
  return { span, parent };
}

/**
 * `params` of a server→client request with `span`'s context added to its
 * `_meta` (its own entries kept), so the client's handling joins the trace.
 */
export function carryingContext(params: object, span: Span, parent: Context): object {
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(parent, span), meta);
  if (Object.keys(meta).length === 0) return params;
  const own = (params as { _meta?: unknown })._meta;
  const merged = typeof own === 'object' && own !== null ? { ...own, ...meta } : meta;
  return { ...params, _meta: merged };
}

function ambientLink(parent: Context, ambient: Context): Link[] | undefined {
  if (parent === ambient) return undefined;
  const spanContext = trace.getSpanContext(ambient);
  return spanContext && trace.isSpanContextValid(spanContext)
    ? [{ context: spanContext }]
    : undefined;
}
