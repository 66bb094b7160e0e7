import { ClientCapabilitiesSchema } from '@modelcontextprotocol/core';
import { deepFreeze } from '../common/deep-freeze.js';
import type { ClientCapabilities } from './mcp-types.js';
import { setBounded } from '../common/bounded-map.js';

/** Distinct capability declarations kept; past it the oldest goes. */
export const KEPT_DECLARATIONS = 64;
/** A declaration longer than this (as JSON) is parsed every time, never kept. */
export const MAX_KEPT_TEXT = 4_096;

/*
 * In the 2026-07-28 era every request declares its client's capabilities, and a client declares
 * the same ones every time. The official schema's parse of a declaration with `elicitation` cost
 * 3.5 µs (Node 20), several percent of a call (docs/performance.md, "Request envelopes"). Its
 * result depends only on the declaration's JSON text, so it is kept by that text, frozen (every
 * request that declares the same gets the same object), a bounded number of them, each bounded
 * in size: a client that declares something new each time costs one `JSON.stringify` more.
 */
const kept = new Map<string, ClientCapabilities>();

/** The declaration as the official schema parses it, or undefined when the schema refuses it. */
export function readClientCapabilities(declared: unknown): ClientCapabilities | undefined {
  if (typeof declared !== 'object' || declared === null) return parse(declared);
  const text = JSON.stringify(declared);
  if (text.length > MAX_KEPT_TEXT) return parse(declared);
  const known = kept.get(text);
  if (known) return known;
  const parsed = parse(declared);
  if (parsed === undefined) return undefined;
  // A copy is frozen, so that nothing the schema might share between its results is.
  const frozen = deepFreeze(structuredClone(parsed));
  setBounded(kept, text, frozen, KEPT_DECLARATIONS);
  return frozen;
}

function parse(declared: unknown): ClientCapabilities | undefined {
  const parsed = ClientCapabilitiesSchema.safeParse(declared);
  return parsed.success ? parsed.data : undefined;
}
