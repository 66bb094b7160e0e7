import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';
import { describeJsonSchemaErrors } from './json-schema.errors.js';
import { validate as validate2020Meta } from './generated/json-schema-2020-12.validator.js';

/** Returns a message describing why `value` does not match, or undefined when it does. */
export type JsonSchemaCheck = (value: unknown) => string | undefined;

/** An output check: a JSON Schema's (synchronous) or a Standard Schema's (maybe async). */
export type OutputCheck = (value: unknown) => string | undefined | Promise<string | undefined>;

type Dialect = {
  create: (options: Options) => Ajv;
  readonly meta: Ajv;
  /** Validates a schema against the dialect's meta-schema; Ajv's errors on `errors`. */
  readonly validateSchema: (schema: JsonSchemaObject) => boolean;
  readonly errors: () => Parameters<Ajv['errorsText']>[0];
};

/*
 * An Ajv instance never forgets what it compiled: its cache and its code scope
 * grow with every schema, even after `removeSchema`. So each definition gets
 * its own small instance (no meta-schemas, nothing shared), owned by the
 * returned check and collected with it when the tool is unregistered. The
 * only shared instances validate schemas against their meta-schema, which
 * they compile once and which holds nothing of the schemas they check.
 * 2020-12 is the default dialect (the MCP spec's); a schema naming draft-04..07
 * gets draft-07. No `loadSchema` is set, so a `$ref` is never fetched.
 */
const shared = { strict: false } as const;
const perDefinition = {
  ...shared,
  allErrors: true, // every `required` failure is reported, not just the first one
  meta: false,
  validateSchema: false,
  addUsedSchema: false,
} as const;

const withFormats = (ajv: Ajv): Ajv => addFormats.default(ajv);

/*
 * Each dialect's shared instance is built on first use: most servers never see a draft-07 schema.
 * `check` validates against the meta-schema without it, when given.
 */
function dialect(
  create: (options: Options) => Ajv,
  check?: ((schema: JsonSchemaObject) => unknown) & { errors?: unknown },
): Dialect {
  let meta: Ajv | undefined;
  /** What checked the last schema: `check`, or the Ajv instance (undefined). */
  let checked: typeof check;
  return {
    create,
    get meta() {
      return (meta ??= create(shared));
    },
    validateSchema(schema) {
      checked = check && !namesOtherMeta(schema) ? check : undefined;
      return checked ? checked(schema) === true : this.meta.validateSchema(schema) === true;
    },
    errors() {
      return (checked ? checked.errors : this.meta.errors) as Parameters<Ajv['errorsText']>[0];
    },
  };
}
/*
 * 2020-12's meta-schema is checked by Ajv's standalone code for it, generated at build time
 * from the `shared` options (scripts/json-schema-meta/): compiling it here cost a start some
 * 50 ms. Its Ajv instance is then built only to word a refusal.
 */
const draft2020 = dialect((options) => withFormats(new Ajv2020(options)), validate2020Meta);

const META_2020 = 'https://json-schema.org/draft/2020-12/schema';
/* A `$schema` other than 2020-12's goes to Ajv, which refuses one it does not know, as before. */
const namesOtherMeta = (schema: JsonSchemaObject): boolean =>
  schema.$schema !== undefined &&
  schema.$schema !== META_2020 &&
  schema.$schema !== `${META_2020}#`;
const draft07 = dialect((options) => withFormats(new Ajv(options)));

function dialectOf(schema: JsonSchemaObject): Dialect {
  const named = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(named) ? draft07 : draft2020;
}

/** Throws (with Ajv's message) unless `schema` is a valid JSON Schema of its dialect. */
export function assertJsonSchema(schema: JsonSchemaObject): void {
  const dialect = dialectOf(schema);
  if (!dialect.validateSchema(schema)) {
    throw new Error(`schema is invalid: ${dialect.meta.errorsText(dialect.errors())}`);
  }
}

/**
 * Compiles a JSON Schema into a check, once. Throws (with Ajv's message) when
 * the schema itself is invalid, so a bad definition fails at registration.
 * `dataVar` names the root value in messages (`arguments`, `structuredContent`).
 */
export function compileJsonSchema(schema: JsonSchemaObject, dataVar: string): JsonSchemaCheck {
  assertJsonSchema(schema);
  const validate = dialectOf(schema).create(perDefinition).compile(schema);
  return (value) =>
    validate(value) ? undefined : describeJsonSchemaErrors(validate.errors ?? [], dataVar);
}
