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
  /** Why `schema` is not a valid schema of the dialect (Ajv's words), or undefined. */
  readonly problemOf: (schema: JsonSchemaObject) => string | undefined;
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

/* A meta-schema check as Ajv's standalone code is: the verdict, and Ajv's errors on `errors`. */
type MetaCheck = ((schema: JsonSchemaObject) => unknown) & { errors?: unknown };

/*
 * Each dialect's shared instance is built on first use: most servers never see a draft-07 schema.
 * `check`, when given, checks the schemas naming no other meta-schema than `metaSchema` without
 * it; the instance is then built only to word a refusal.
 */
function dialect(
  create: (options: Options) => Ajv,
  check?: { metaSchema: string; validate: MetaCheck },
): Dialect {
  let meta: Ajv | undefined;
  const instance = () => (meta ??= create(shared));
  const words = (errors: unknown) =>
    instance().errorsText(errors as Parameters<Ajv['errorsText']>[0]);
  return {
    create,
    problemOf(schema) {
      const named = schema.$schema;
      const own =
        named === undefined ||
        (typeof named === 'string' && named.replace(/#$/, '') === check?.metaSchema);
      if (check && own) {
        return check.validate(schema) === true ? undefined : words(check.validate.errors);
      }
      const ajv = instance();
      return ajv.validateSchema(schema) === true ? undefined : words(ajv.errors);
    },
  };
}
/*
 * 2020-12's meta-schema is checked by Ajv's standalone code for it, generated at build time
 * from the `shared` options (scripts/json-schema-meta/): compiling it here cost a start some
 * 50 ms. A `$schema` naming any other goes to Ajv, which refuses one it does not know.
 */
const draft2020 = dialect((options) => withFormats(new Ajv2020(options)), {
  metaSchema: 'https://json-schema.org/draft/2020-12/schema',
  validate: validate2020Meta,
});
const draft07 = dialect((options) => withFormats(new Ajv(options)));

function dialectOf(schema: JsonSchemaObject): Dialect {
  const named = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(named) ? draft07 : draft2020;
}

/** Throws (with Ajv's message) unless `schema` is a valid JSON Schema of its dialect. */
export function assertJsonSchema(schema: JsonSchemaObject): void {
  const problem = dialectOf(schema).problemOf(schema);
  if (problem !== undefined) throw new Error(`schema is invalid: ${problem}`);
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
