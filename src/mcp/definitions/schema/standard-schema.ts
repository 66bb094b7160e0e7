import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { toJSONSchema } from 'zod';
import { isPromiseLike } from '../../core/common/maybe-promise.js';
import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';
import { optionalLibrary } from './optional-libraries.js';
import { dottedPath, listProblems } from './validation-message.js';

/**
 * A Standard Schema v1 validator (zod 4, valibot, ArkType, …): a schema with a `~standard`
 * property that validates, and that can describe itself as JSON Schema (docs/providers.md).
 * @publicApi
 */
export type McpStandardSchema<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output>;

/** Whether `value` is a Standard Schema v1 validator (a zod, valibot or ArkType schema, …). */
export function isStandardSchema(value: unknown): value is McpStandardSchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as Partial<McpStandardSchema>)['~standard'];
  return props?.version === 1 && typeof props.validate === 'function';
}

/** Which side of a transform the JSON Schema describes: what a caller sends, or what it gets. */
export type SchemaSide = 'input' | 'output';

/*
 * The JSON Schema a validator describes itself as, in the MCP spec's dialect (2020-12). The
 * Standard JSON Schema interface (`~standard.jsonSchema`, zod ≥ 4.2, ArkType ≥ 2.1.28) comes
 * first; otherwise the vendor's own converter: zod 4's `toJSONSchema`, valibot's
 * `@valibot/to-json-schema` (the app brings it, as it brings valibot). Anything else cannot
 * be listed, so it cannot be a tool's schema.
 */
export function jsonSchemaOf(schema: McpStandardSchema, side: SchemaSide): JsonSchemaObject {
  const props = schema['~standard'] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  if (props.jsonSchema) return props.jsonSchema[side]({ target: 'draft-2020-12' });
  switch (props.vendor) {
    case 'zod':
      return zodJsonSchema(schema, side);
    case 'valibot':
      return valibotJsonSchema(schema, side);
    default:
      throw new Error(
        `the ${props.vendor} schema cannot describe itself as JSON Schema (it does not implement ` +
          'Standard JSON Schema): give a JSON Schema object or a DTO class instead',
      );
  }
}

function zodJsonSchema(schema: McpStandardSchema, side: SchemaSide): JsonSchemaObject {
  // zod 3 schemas (`zod/v3`) are Standard Schemas too, but have no JSON Schema converter.
  if (!('_zod' in schema)) {
    throw new Error('a zod 3 schema cannot describe itself as JSON Schema: use zod 4 (`zod` ≥ 4)');
  }
  return toJSONSchema(schema as never, { target: 'draft-2020-12', io: side }) as JsonSchemaObject;
}

function valibotJsonSchema(schema: McpStandardSchema, side: SchemaSide): JsonSchemaObject {
  const { toJsonSchema } = optionalLibrary<{
    toJsonSchema(schema: unknown, options: object): JsonSchemaObject;
  }>('@valibot/to-json-schema', 'valibot schemas');
  // A refinement or a transform has no JSON Schema; the validator enforces it, the listing omits it.
  return toJsonSchema(schema, { target: 'draft-2020-12', typeMode: side, errorMode: 'ignore' });
}

/** The result of a validation: what the validator made of the value, or why it refused it. */
export type StandardValidation = { ok: true; value: unknown } | { ok: false; message: string };

/** Validates with the validator itself (sync or async); `root` names the value in messages. */
export function validateStandard(
  schema: McpStandardSchema,
  value: unknown,
  root: string,
): StandardValidation | Promise<StandardValidation> {
  const result = schema['~standard'].validate(value);
  if (isPromiseLike(result)) return Promise.resolve(result).then((done) => outcomeOf(done, root));
  return outcomeOf(result as StandardSchemaV1.Result<unknown>, root);
}

function outcomeOf(result: StandardSchemaV1.Result<unknown>, root: string): StandardValidation {
  return result.issues
    ? { ok: false, message: issuesMessage(result.issues, root) }
    : { ok: true, value: result.value };
}

/* ArkType starts its messages with the path (`items[0].qty must be…`); it is said once, first. */
function withoutPath(message: string, path: readonly string[]): string {
  if (path.length === 0) return message;
  const bracketed = path
    .map((key, index) => (/^\d+$/.test(key) ? `[${key}]` : index === 0 ? key : `.${key}`))
    .join('');
  for (const prefix of [`${bracketed} `, `${path.join('.')} `]) {
    if (message.startsWith(prefix)) return message.slice(prefix.length);
  }
  return message;
}

/**
 * One line per issue, the field path first (`items.0.name: …`, `root` for the whole value), each
 * line once, at most `MAX_LISTED_PROBLEMS` of them and a count of the rest.
 */
export function issuesMessage(issues: readonly StandardSchemaV1.Issue[], root: string): string {
  const lines = issues.map((issue) => {
    const path = (issue.path ?? []).map((segment) =>
      String(typeof segment === 'object' && segment !== null ? segment.key : segment),
    );
    return `${dottedPath(path, root)}: ${withoutPath(issue.message, path)}`;
  });
  return listProblems(lines, '\n');
}
