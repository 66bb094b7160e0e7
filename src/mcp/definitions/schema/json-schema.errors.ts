import type { ErrorObject } from 'ajv';
import { dottedPath, joinProblems, unknownPropertyProblem } from './validation-message.js';

/* Keywords whose sub-schemas may fail without the whole failing. */
const BRANCHING = new Set(['anyOf', 'oneOf', 'not', 'if', 'contains']);

/** `/items/0/name` (a JSON Pointer) → `['items', '0', 'name']`. */
function segments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Turns Ajv's errors (compiled with `allErrors`) into one message: missing
 * required properties first, as `<path> is required`, then the other
 * problems. The failures inside a branch (`anyOf`, `oneOf`, …) are not
 * definite (another branch might have passed), so only the branch's own
 * error is reported for them.
 */
export function describeJsonSchemaErrors(errors: readonly ErrorObject[], root: string): string {
  const branches = errors.filter((error) => BRANCHING.has(error.keyword));
  const underBranch = (error: ErrorObject) =>
    branches.some((branch) => error.schemaPath.startsWith(`${branch.schemaPath}/`));

  const missing: string[] = [];
  const others: string[] = [];
  for (const error of errors) {
    if (underBranch(error)) continue;
    const at = segments(error.instancePath);
    const params = error.params as Record<string, unknown>;
    const extra = params.additionalProperty ?? params.unevaluatedProperty;
    if (error.keyword === 'required') {
      missing.push(dottedPath([...at, String(params.missingProperty)], root));
    } else if (extra !== undefined) {
      others.push(unknownPropertyProblem(dottedPath([...at, String(extra)], root)));
    } else {
      others.push(`${dottedPath(at, root)} ${error.message ?? 'is invalid'}`);
    }
  }
  return joinProblems(missing, others);
}
