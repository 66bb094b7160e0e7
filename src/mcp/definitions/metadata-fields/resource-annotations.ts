import { AnnotationsSchema } from '@modelcontextprotocol/core';
import type { McpResourceAnnotations } from './display.interface.js';
import { firstIssue } from './zod-issue.js';

/** A resource's (or template's) annotations and size, as a definition sets them. */
export interface ResourceHints {
  annotations?: McpResourceAnnotations;
  /** Bytes of the raw content; static resources only (templates have no size in the schema). */
  size?: number;
}

/**
 * Checks `annotations` against the official schema (audience `user` or
 * `assistant`, priority within 0..1, `lastModified` an ISO 8601 timestamp) and
 * `size` as a byte count, and returns copies of the ones set.
 */
export function resourceHintsOf(
  def: ResourceHints,
  fail: (problem: string) => Error,
): ResourceHints {
  const hints: ResourceHints = {};
  if (def.annotations !== undefined) {
    const parsed = AnnotationsSchema.safeParse(def.annotations);
    if (!parsed.success) throw fail(firstIssue(parsed.error, 'annotations'));
    const { audience, ...rest } = def.annotations;
    hints.annotations = audience ? { ...rest, audience: [...audience] } : { ...rest };
  }
  if (def.size !== undefined) {
    if (!Number.isSafeInteger(def.size) || def.size < 0) {
      throw fail('size must be a whole number of bytes (0 or more)');
    }
    hints.size = def.size;
  }
  return hints;
}
