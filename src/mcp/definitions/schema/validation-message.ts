/*
 * One wording for both validators (DTO and JSON Schema), so a caller reads the
 * same kind of message whichever a tool uses: dotted paths (`items.0.name`),
 * missing properties first and only once, and no more than a few problems.
 */

/** How many problems a message lists before summarising the rest. */
export const MAX_LISTED_PROBLEMS = 5;

/** `items`, `0`, `name` → `items.0.name`; the empty path is `root`. */
export function dottedPath(segments: readonly string[], root: string): string {
  return segments.length === 0 ? root : segments.join('.');
}

/** The message for a required property that is absent. */
export function requiredProblem(path: string): string {
  return `${path} is required`;
}

/** The message for a property the schema does not declare. */
export function unknownPropertyProblem(path: string): string {
  return `${path} is not allowed`;
}

/**
 * Joins problems into one message: missing properties first, each problem
 * once, at most `MAX_LISTED_PROBLEMS` of them and a count of the rest.
 */
export function joinProblems(missing: readonly string[], others: readonly string[]): string {
  return listProblems([...missing.map(requiredProblem), ...others], '; ');
}

/** Each problem once, at most `MAX_LISTED_PROBLEMS` of them and a count of the rest. */
export function listProblems(problems: readonly string[], separator: string): string {
  const unique = [...new Set(problems)];
  const listed = unique.slice(0, MAX_LISTED_PROBLEMS);
  const rest = unique.length - listed.length;
  return [...listed, ...(rest > 0 ? [`and ${rest} more`] : [])].join(separator);
}
