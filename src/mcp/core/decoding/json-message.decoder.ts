import type { ResolvedMcpLimits } from '../limits/mcp-limits.interface.js';
import { isJsonObject } from '../protocol/jsonrpc.js';
import { McpOversizedValue } from './oversized-value.js';
import {
  scanMessageShape,
  type MessageShapeBounds,
  type OversizedMember,
} from './message-shape.scanner.js';

/** What decoding one body (or stdio line) gave. */
export type DecodedMessage =
  | { readonly kind: 'message'; readonly message: unknown }
  | { readonly kind: 'parse-error' }
  /** Refused whole before parsing: `reason` completes "Invalid Request: …". */
  | { readonly kind: 'refused'; readonly reason: string };

/** The decoding bounds that `limits` sets. */
export function messageShapeBounds(limits: ResolvedMcpLimits): MessageShapeBounds {
  return {
    maxArgumentKeys: limits.maxArgumentKeys,
    maxArgumentDepth: limits.maxArgumentDepth,
    maxArgumentArrayLength: limits.maxArgumentArrayLength,
    maxBatchItems: limits.maxInFlightPerConnection,
  };
}

/**
 * `JSON.parse`, with the body's shape measured first (`scanMessageShape`)
 * so that no body up to `maxBodyBytes` costs more than a bounded parse: one
 * past the body's bounds is refused unparsed, and a `params` member past the
 * argument bounds is cut from the text and parsed as a `McpOversizedValue`
 * that names the bound, for the dispatcher to answer as it would any
 * over-bound member.
 */
export function decodeJsonMessage(text: string, bounds: MessageShapeBounds): DecodedMessage {
  const scan = scanMessageShape(text, bounds);
  if (scan.refusal !== undefined) return { kind: 'refused', reason: scan.refusal };
  try {
    if (scan.oversized.length === 0) return { kind: 'message', message: JSON.parse(text) };
    const message: unknown = JSON.parse(withoutMembers(text, scan.oversized));
    for (const member of scan.oversized) graft(message, member);
    return { kind: 'message', message };
  } catch {
    return { kind: 'parse-error' };
  }
}

/* The text with each oversized member's value replaced by `null` (spans come in order). */
function withoutMembers(text: string, members: readonly OversizedMember[]): string {
  const parts: string[] = [];
  let from = 0;
  for (const { start, end } of members) {
    parts.push(text.slice(from, start), 'null');
    from = end;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/* Puts the stand-in where the member was (its key may be escaped, or `__proto__`). */
function graft(decoded: unknown, member: OversizedMember): void {
  const message = Array.isArray(decoded) ? decoded[member.message] : decoded;
  if (!isJsonObject(message) || !isJsonObject(message.params)) return;
  const key = JSON.parse(`"${member.rawKey}"`) as string;
  Object.defineProperty(message.params, key, {
    value: new McpOversizedValue(member.problem),
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
