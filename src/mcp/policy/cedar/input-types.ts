import type { CedarValueJson, Type } from '@cedar-policy/cedar-wasm/nodejs';

/** A tool property Cedar cannot type, left out of `context.input` (reported once at boot). */
export interface UntypedProperty {
  readonly tool: string;
  /** The property's path inside the arguments, dotted (`filter.when`). */
  readonly property: string;
  readonly why: string;
}

/** A Cedar attribute type, as the JSON schema format spells it. */
export type CedarType = Type<string> & { required?: boolean };

const UNSUPPORTED_KEYWORDS = [
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'patternProperties',
  '$ref',
] as const;

/**
 * The Cedar record type of a tool's input, from its JSON Schema: strings, integers, booleans,
 * numbers with at most four decimals (Cedar's `decimal`), arrays of those (sets) and objects
 * with declared properties (records). Anything else is left out and reported, so a policy that
 * references it fails validation instead of reading an attribute that is never there
 * (docs/policy.md, "what Cedar can type").
 */
export function inputRecordType(
  tool: string,
  schema: Record<string, unknown>,
  untyped: UntypedProperty[],
): CedarType {
  return recordOf(tool, '', schema, untyped) ?? { type: 'Record', attributes: {} };
}

function recordOf(
  tool: string,
  path: string,
  schema: Record<string, unknown>,
  untyped: UntypedProperty[],
): CedarType | undefined {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const attributes: Record<string, CedarType> = {};
  for (const [name, property] of Object.entries(properties)) {
    const where = path ? `${path}.${name}` : name;
    const type = typeOf(tool, where, property ?? {}, untyped);
    if (type) attributes[name] = required.has(name) ? type : { ...type, required: false };
  }
  return { type: 'Record', attributes };
}

function typeOf(
  tool: string,
  path: string,
  schema: Record<string, unknown>,
  untyped: UntypedProperty[],
): CedarType | undefined {
  const keyword = UNSUPPORTED_KEYWORDS.find((key) => schema[key] !== undefined);
  if (keyword) return skip(untyped, tool, path, `\`${keyword}\` has no Cedar type`);
  switch (schema.type) {
    case 'string':
      return { type: 'String' };
    case 'integer':
      return { type: 'Long' };
    case 'boolean':
      return { type: 'Boolean' };
    case 'number':
      return { type: 'Extension', name: 'decimal' };
    case 'array': {
      const items = schema.items;
      if (!items || typeof items !== 'object' || Array.isArray(items)) {
        return skip(untyped, tool, path, 'an array without one `items` schema has no Cedar type');
      }
      const element = typeOf(tool, `${path}[]`, items as Record<string, unknown>, untyped);
      return element ? { type: 'Set', element: stripRequired(element) } : undefined;
    }
    case 'object':
      if (!schema.properties) {
        return skip(untyped, tool, path, 'an object without `properties` has no Cedar type');
      }
      return recordOf(tool, path, schema, untyped);
    default:
      return skip(
        untyped,
        tool,
        path,
        Array.isArray(schema.type)
          ? 'a union of types has no Cedar type'
          : 'a property without one `type` has no Cedar type',
      );
  }
}

function stripRequired(type: CedarType): CedarType {
  const { required: _required, ...rest } = type;
  return rest as CedarType;
}

function skip(untyped: UntypedProperty[], tool: string, property: string, why: string): undefined {
  untyped.push({ tool, property, why });
  return undefined;
}

/**
 * A value of the declared JSON type that Cedar cannot hold exactly (an integer beyond 2^53, a
 * number with more than four decimals). Leaving it out would let a forbid that reads it error
 * and not apply while input validation accepts the call: such a call is denied instead.
 */
export const UNREPRESENTABLE = Symbol('unrepresentable');

/**
 * The arguments as Cedar values of `type`: what does not fit its declared type is left out
 * (the seam runs before input validation, so arguments are untrusted). A policy reading a
 * left-out attribute errors, and by Cedar's semantics an erroring policy does not apply; the
 * call itself is then refused by input validation.
 */
export function cedarValue(
  type: CedarType,
  value: unknown,
): CedarValueJson | typeof UNREPRESENTABLE | undefined {
  switch (type.type) {
    case 'String':
      return typeof value === 'string' ? value : undefined;
    case 'Long':
      if (Number.isSafeInteger(value)) return value as number;
      return Number.isInteger(value) ? UNREPRESENTABLE : undefined;
    case 'Boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'Extension':
      return decimalOf(value);
    case 'Set': {
      if (!Array.isArray(value)) return undefined;
      const items: CedarValueJson[] = [];
      for (const item of value) {
        const converted = cedarValue((type as { element: CedarType }).element, item);
        if (converted === undefined || converted === UNREPRESENTABLE) return converted;
        items.push(converted);
      }
      return items;
    }
    case 'Record': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
      const record: Record<string, CedarValueJson> = {};
      const source = value as Record<string, unknown>;
      for (const [name, attribute] of Object.entries((type as { attributes: object }).attributes)) {
        if (!Object.hasOwn(source, name)) continue;
        const converted = cedarValue(attribute as CedarType, source[name]);
        if (converted === UNREPRESENTABLE) return UNREPRESENTABLE;
        if (converted !== undefined) record[name] = converted;
      }
      return record;
    }
    default:
      return undefined;
  }
}

/* Cedar's decimal holds four decimal places exactly; a number it would round is left out. */
function decimalOf(value: unknown): CedarValueJson | typeof UNREPRESENTABLE | undefined {
  if (typeof value !== 'number') return undefined;
  if (!Number.isFinite(value)) return UNREPRESENTABLE;
  const scaled = value * 10_000;
  if (!Number.isSafeInteger(Math.round(scaled)) || Math.abs(scaled - Math.round(scaled)) > 1e-6) {
    return UNREPRESENTABLE;
  }
  return { __extn: { fn: 'decimal', arg: value.toFixed(4) } };
}
