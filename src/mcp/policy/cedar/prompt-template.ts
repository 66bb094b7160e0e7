/* Each interpolated value is cut, so an argument cannot flood the approval prompt. */
const MAX_VALUE_CHARS = 100;
const PLACEHOLDER = /\{(input|resource)\.([A-Za-z0-9_.-]+)\}/g;

/**
 * An `@ask("…")` prompt with its placeholders filled: `{input.<path>}` reads a scalar argument,
 * `{resource.<tag>}` a tag the app put on the resource (the `entities` hook). A missing or
 * non-scalar value reads `(unspecified)`.
 */
export function fillPrompt(
  template: string,
  input: Readonly<Record<string, unknown>>,
  tags: Readonly<Record<string, unknown>>,
): string {
  return template.replace(PLACEHOLDER, (_match, source: string, path: string) => {
    const value = source === 'input' ? pathOf(input, path) : tags[path];
    if (typeof value === 'string') return value.slice(0, MAX_VALUE_CHARS);
    if (typeof value === 'number' || typeof value === 'boolean') {
      return String(value).slice(0, MAX_VALUE_CHARS);
    }
    return '(unspecified)';
  });
}

function pathOf(input: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = input;
  for (const key of path.split('.')) {
    if (!value || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
