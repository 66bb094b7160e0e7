import { McpOversizedValue } from './oversized-value.js';

/** The bounds on a call's arguments, checked before anything else looks at them. */
export interface ArgumentShapeLimits {
  readonly maxArgumentKeys: number;
  readonly maxArgumentDepth: number;
  readonly maxArgumentArrayLength: number;
}

/**
 * Why `args` is too big a shape to validate, or undefined. One iterative
 * pass (no recursion, so 100 000 levels of nesting cannot overflow the
 * stack) that stops at the first bound crossed: the cost of refusing is at
 * most the cost of the bound, whatever the body holds. Key count covers
 * object properties and array elements alike.
 */
export function argumentShapeProblem(
  args: unknown,
  limits: ArgumentShapeLimits,
): string | undefined {
  // Two parallel stacks rather than a [value, depth] pair per value, and only objects go on
  // them: a call's arguments are checked on every call, and most hold no nested value at all.
  const values: object[] = [];
  const depths: number[] = [];
  if (typeof args === 'object' && args !== null) {
    values.push(args);
    depths.push(1);
  }
  let keys = 0;
  while (values.length > 0) {
    const value = values.pop()!;
    const depth = depths.pop()!;
    // Measured (and cut out) while the body was decoded.
    if (value instanceof McpOversizedValue) return value.problem;
    if (depth > limits.maxArgumentDepth) return shapeProblemText('depth', limits);
    if (Array.isArray(value)) {
      if (value.length > limits.maxArgumentArrayLength) return shapeProblemText('array', limits);
      keys += value.length;
      if (keys > limits.maxArgumentKeys) return shapeProblemText('keys', limits);
      for (const item of value as unknown[]) {
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in value) {
        if (++keys > limits.maxArgumentKeys) return shapeProblemText('keys', limits);
        const item = (value as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return undefined;
}

/** Which argument bound a shape crossed. */
export type ShapeBound = 'depth' | 'array' | 'keys';

/** What the answer says about a crossed bound (the same words wherever it was found). */
export function shapeProblemText(bound: ShapeBound, limits: ArgumentShapeLimits): string {
  switch (bound) {
    case 'depth':
      return `arguments nest deeper than ${limits.maxArgumentDepth} levels`;
    case 'array':
      return `an array in the arguments has more than ${limits.maxArgumentArrayLength} items`;
    case 'keys':
      return `the arguments hold more than ${limits.maxArgumentKeys} keys and items`;
  }
}
