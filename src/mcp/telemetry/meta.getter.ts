import type { TextMapGetter } from '@opentelemetry/api';
import { isJsonObject } from '../core/protocol/jsonrpc.js';

/** W3C baggage allows 8,192 bytes; nothing longer is handed to a propagator. */
const MAX_VALUE_CHARS = 8_192;

/**
 * Reads propagation fields (`traceparent`, `tracestate`, `baggage`) from a
 * request's `params._meta`, where the MCP conventions carry them (unprefixed,
 * per SEP-414). The bag is the client's: only strings of bounded length are
 * handed on, and the configured propagator validates their format.
 */
export const metaGetter: TextMapGetter<unknown> = {
  keys(carrier) {
    return isJsonObject(carrier) ? Object.keys(carrier) : [];
  },
  get(carrier, key) {
    if (!isJsonObject(carrier) || !Object.hasOwn(carrier, key)) return undefined;
    const value = carrier[key];
    return typeof value === 'string' && value.length <= MAX_VALUE_CHARS ? value : undefined;
  },
};

/** The `_meta` bag of a request's params, if it has one. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = isJsonObject(params) ? params._meta : undefined;
  return isJsonObject(meta) ? meta : undefined;
}
