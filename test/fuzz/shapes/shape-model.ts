import fc from 'fast-check';
import { REAL_METHODS } from '../../support/reliability-fuzz.js';

/*
 * A reference model of the argument bounds (limits.maxArgumentKeys /
 * maxArgumentDepth / maxArgumentArrayLength): what the server must refuse,
 * and with which words, written apart from the server's own check; and the
 * builders of shapes around them.
 */

/** The argument bounds a fuzz app runs with. */
export interface ShapeLimits {
  maxArgumentKeys: number;
  maxArgumentDepth: number;
  maxArgumentArrayLength: number;
}

/** Lowered bounds, so that crossing them is cheap and most cases sit around them. */
export const LOW_LIMITS: ShapeLimits = {
  maxArgumentKeys: 200,
  maxArgumentDepth: 8,
  maxArgumentArrayLength: 50,
};

/** The defaults (DEFAULT_LIMITS), for the fewer cases drawn around the real bounds. */
export const DEFAULT_SHAPE_LIMITS: ShapeLimits = {
  maxArgumentKeys: 10_000,
  maxArgumentDepth: 32,
  maxArgumentArrayLength: 10_000,
};

/** What a shape measures, as the bounds count it (the arguments object itself is level 1). */
export interface ShapeFigures {
  /** Object keys plus array items, over all levels. */
  keys: number;
  /** The deepest level holding an object or an array. */
  depth: number;
  /** The longest array. */
  longestArray: number;
}

/**
 * Measures `value` iteratively (no recursion: 100 000 levels must not overflow
 * this either). A reference, not the server's code: it walks everything and
 * judges after.
 */
export function figuresOf(value: unknown): ShapeFigures {
  const figures: ShapeFigures = { keys: 0, depth: 0, longestArray: 0 };
  // Two parallel stacks: no tuple per value (a 100 000-level walk stays cheap).
  const values: unknown[] = [value];
  const levels: number[] = [1];
  while (values.length > 0) {
    const item = values.pop();
    const level = levels.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (level > figures.depth) figures.depth = level;
    if (Array.isArray(item)) {
      if (item.length > figures.longestArray) figures.longestArray = item.length;
      figures.keys += item.length;
      for (let at = 0; at < item.length; at++) {
        values.push(item[at]);
        levels.push(level + 1);
      }
    } else {
      for (const child of Object.values(item)) {
        figures.keys++;
        values.push(child);
        levels.push(level + 1);
      }
    }
  }
  return figures;
}

/** The refusals the server may give for `figures` under `limits` (empty: within every bound). */
export function expectedRefusals(figures: ShapeFigures, limits: ShapeLimits): string[] {
  const refusals: string[] = [];
  if (figures.keys > limits.maxArgumentKeys) {
    refusals.push(`the arguments hold more than ${limits.maxArgumentKeys} keys and items`);
  }
  if (figures.depth > limits.maxArgumentDepth) {
    refusals.push(`arguments nest deeper than ${limits.maxArgumentDepth} levels`);
  }
  if (figures.longestArray > limits.maxArgumentArrayLength) {
    refusals.push(`an array in the arguments has more than ${limits.maxArgumentArrayLength} items`);
  }
  return refusals;
}

/** `levels` of nesting around `leaf`, built from the inside out (objects, arrays or both). */
export function nest(levels: number, kind: 'object' | 'array' | 'mixed', leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < levels; level++) {
    const asArray = kind === 'array' || (kind === 'mixed' && level % 2 === 1);
    value = asArray ? [value] : { n: value };
  }
  return value;
}

/** An object of `count` keys `k0…`, each holding `leaf`. */
export function wide(count: number, leaf: unknown = 1): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let key = 0; key < count; key++) object[`k${key}`] = leaf;
  return object;
}

/** A size drawn around `bound`: just under, at, just past, well past, or anywhere below. */
export function around(bound: number, farthest = bound * 3): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.max(0, bound - 3), max: bound + 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: bound }) },
    { weight: 1, arbitrary: fc.integer({ min: bound, max: Math.max(bound, farthest) }) },
  );
}

/**
 * The reply a request other than tools/call must get for `input`, when its
 * params (an object, to a method the server serves) cross a shape bound:
 * -32602 naming a bound they crossed. Undefined when that does not apply.
 */
export function expectedParamsRefusal(input: unknown, limits: ShapeLimits): string[] | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const m = input as Record<string, unknown>;
  const served = (REAL_METHODS as readonly string[]).includes(m.method as string);
  if (m.jsonrpc !== '2.0' || !served || m.method === 'tools/call' || m.method === 'initialize') {
    return undefined;
  }
  const id = m.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))))
    return undefined;
  const params = m.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const refusals = expectedRefusals(figuresOf(params), limits);
  return refusals.length > 0 ? refusals : undefined;
}
