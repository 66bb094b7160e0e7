import { displayFieldsOf } from './metadata-fields/display-fields.js';
import { resourceHintsOf } from './metadata-fields/resource-annotations.js';
import type {
  JsonSchemaObject,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
} from '../core/protocol/mcp-types.js';
import type {
  McpPromptEntry,
  McpResourceEntry,
  McpResourceTemplateEntry,
  McpToolEntry,
} from './interfaces/registry-entry.interface.js';
import type {
  McpPromptArgumentDefinition,
  McpPromptDefinition,
} from './interfaces/prompt.interface.js';
import type {
  McpResourceDefinition,
  McpResourceTemplateDefinition,
} from './interfaces/resource.interface.js';
import type { McpToolDefinition, McpToolOutput } from './interfaces/tool.interface.js';
import { McpDefinitionError } from './registry.errors.js';
import type { McpTaskSupport } from './interfaces/tool.interface.js';
import { DtoInputValidator } from './schema/dto-input.validator.js';
import type { InputValidator } from './schema/input-validator.js';
import { JsonSchemaInputValidator } from './schema/json-schema-input.validator.js';
import {
  assertJsonSchema,
  compileJsonSchema,
  type OutputCheck,
} from './schema/json-schema.compiler.js';
import {
  isStandardSchema,
  jsonSchemaOf,
  type McpStandardSchema,
  validateStandard,
  type StandardValidation,
} from './schema/standard-schema.js';
import { StandardSchemaInputValidator } from './schema/standard-schema-input.validator.js';
import { isPromiseLike } from '../core/common/maybe-promise.js';
import { UriTemplate } from './uri-template.js';

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/*
 * Resource and prompt handlers are wrapped so a synchronous throw and a rejection look the
 * same; tool handlers run as they are (the invoker bounds only the async ones by a timer).
 */
const lift =
  <A extends unknown[]>(fn: (...args: A) => unknown) =>
  async (...args: A): Promise<unknown> =>
    fn(...args);

/**
 * Validates a tool definition and compiles its schemas, once each; throws
 * `McpDefinitionError`. The compiled checks belong to the entry alone (no
 * shared cache holds them), so dropping the entry frees them.
 */
export function createToolEntry(def: McpToolDefinition, source: string): McpToolEntry {
  const fail = (problem: string) => new McpDefinitionError('tool', source, problem);
  if (typeof def.name !== 'string' || !NAME.test(def.name)) {
    throw fail(`name ${JSON.stringify(def.name)} must be 1-128 characters of [A-Za-z0-9_.-]`);
  }
  if (typeof def.description !== 'string' || def.description.trim() === '') {
    throw fail(`tool "${def.name}" needs a non-empty description`);
  }
  const input = createInputValidator(def.inputSchema, fail);
  const output = def.outputSchema === undefined ? undefined : createOutput(def.outputSchema, fail);
  const inputSchema = input.schema as Tool['inputSchema'];
  const tool: Tool = { name: def.name, description: def.description, inputSchema };
  Object.assign(tool, displayFieldsOf(def, fail));
  if (output) tool.outputSchema = output.schema as Tool['outputSchema'];
  if (def.annotations !== undefined) tool.annotations = def.annotations;
  return {
    tool,
    // A `false` or a `readOnlyHint` never cancels a `true`: either flag makes it sensitive.
    sensitive: def.annotations?.destructiveHint === true || def.sensitive === true,
    scopes: scopesOf(def.scopes, fail),
    task: taskSupportOf(def.task, fail),
    input,
    output: output?.check,
    completions: { ...def.completions },
    invoke: def.handler as McpToolEntry['invoke'],
    source,
  };
}

function taskSupportOf(task: unknown, fail: (problem: string) => Error): McpTaskSupport {
  if (task === undefined || task === 'never') return 'never';
  if (task === 'optional' || task === 'required') return task;
  throw fail(`task must be 'never', 'optional' or 'required', not ${JSON.stringify(task)}`);
}

function scopesOf(scopes: unknown, fail: (problem: string) => Error): readonly string[] {
  if (scopes === undefined) return [];
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && /^\S+$/.test(s))) {
    throw fail('scopes must be an array of scope tokens (no spaces)');
  }
  return Object.freeze([...scopes]);
}

function createInputValidator(
  input: McpToolDefinition['inputSchema'] | undefined,
  fail: (problem: string) => Error,
): InputValidator {
  if (input === undefined) {
    return new JsonSchemaInputValidator({ type: 'object', additionalProperties: false });
  }
  // First: an ArkType schema is a function, and a zod one an object, like the other two kinds.
  if (isStandardSchema(input)) {
    return orFail(() => new StandardSchemaInputValidator(input), 'invalid input schema', fail);
  }
  if (typeof input === 'function') {
    return orFail(() => new DtoInputValidator(input), 'invalid input DTO', fail);
  }
  if (!isObjectSchema(input)) throw fail('input schema must be a JSON Schema with type "object"');
  return orFail(() => new JsonSchemaInputValidator(input), 'invalid JSON Schema', fail);
}

/* An output schema: listed as JSON Schema, and the check a result must pass before it is sent. */
function createOutput(
  schema: McpToolOutput,
  fail: (problem: string) => Error,
): { schema: JsonSchemaObject; check: OutputCheck } {
  if (isStandardSchema(schema)) {
    const listed = orFail(() => jsonSchemaOf(schema, 'output'), 'invalid output schema', fail);
    if (!isObjectSchema(listed)) throw fail('outputSchema must describe an object');
    orFail(() => assertJsonSchema(listed), 'invalid output schema', fail);
    const check: OutputCheck = (value) => {
      const outcome = validateStandard(schema, value, 'structuredContent');
      const message = (done: StandardValidation) => (done.ok ? undefined : done.message);
      return isPromiseLike(outcome) ? Promise.resolve(outcome).then(message) : message(outcome);
    };
    return { schema: listed, check };
  }
  if (!isObjectSchema(schema)) throw fail('outputSchema must have type "object"');
  const check = orFail(
    () => compileJsonSchema(schema, 'structuredContent'),
    'invalid JSON Schema',
    fail,
  );
  return { schema, check };
}

function orFail<T>(build: () => T, what: string, fail: (problem: string) => Error): T {
  try {
    return build();
  } catch (error) {
    throw fail(`${what}: ${(error as Error).message}`);
  }
}

function isObjectSchema(schema: unknown): schema is Record<string, unknown> {
  return (
    typeof schema === 'object' &&
    schema !== null &&
    !Array.isArray(schema) &&
    (schema as { type?: unknown }).type === 'object'
  );
}

/** Validates a static resource definition. */
export function createResourceEntry(def: McpResourceDefinition, source: string): McpResourceEntry {
  const fail = (problem: string) => new McpDefinitionError('resource', source, problem);
  if (typeof def.uri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(def.uri)) {
    throw fail(`uri ${JSON.stringify(def.uri)} must be an absolute URI`);
  }
  if (typeof def.name !== 'string' || def.name === '') throw fail('name must be non-empty');
  const resource: Resource = { uri: def.uri, name: def.name };
  copyOptional(resource, def, ['description', 'mimeType']);
  Object.assign(resource, displayFieldsOf(def, fail), resourceHintsOf(def, fail));
  return { resource, invoke: lift(def.handler), source };
}

/** Validates a resource template definition and compiles its matcher. */
export function createResourceTemplateEntry(
  def: McpResourceTemplateDefinition,
  source: string,
): McpResourceTemplateEntry {
  const fail = (problem: string) => new McpDefinitionError('resource template', source, problem);
  if (typeof def.uriTemplate !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(def.uriTemplate)) {
    throw fail(`uriTemplate ${JSON.stringify(def.uriTemplate)} must be an absolute URI template`);
  }
  if (typeof def.name !== 'string' || def.name === '') throw fail('name must be non-empty');
  let matcher: UriTemplate;
  try {
    matcher = new UriTemplate(def.uriTemplate);
  } catch (error) {
    throw fail(`uriTemplate ${def.uriTemplate}: ${(error as Error).message}`);
  }
  if (def.completions && def.complete && def.completions !== def.complete) {
    throw fail('set completions or its deprecated alias complete, not both');
  }
  const completions = { ...(def.completions ?? def.complete) };
  for (const variable of Object.keys(completions)) {
    if (!matcher.variables.includes(variable))
      throw fail(`completer for unknown variable ${variable}`);
  }
  const template: ResourceTemplate = { uriTemplate: def.uriTemplate, name: def.name };
  copyOptional(template, def, ['description', 'mimeType']);
  // The schema gives a template annotations but no size (a template's resources vary).
  const hints = resourceHintsOf({ annotations: def.annotations }, fail);
  Object.assign(template, displayFieldsOf(def, fail), hints);
  return { template, matcher, completions, invoke: lift(def.handler), source };
}

/** Validates a prompt definition. */
export function createPromptEntry(def: McpPromptDefinition, source: string): McpPromptEntry {
  const fail = (problem: string) => new McpDefinitionError('prompt', source, problem);
  if (typeof def.name !== 'string' || !NAME.test(def.name)) {
    throw fail(`name ${JSON.stringify(def.name)} must be 1-128 characters of [A-Za-z0-9_.-]`);
  }
  if (typeof def.description !== 'string' || def.description.trim() === '') {
    throw fail(`prompt "${def.name}" needs a non-empty description`);
  }
  if (def.argsSchema !== undefined && def.arguments !== undefined) {
    throw fail('set arguments or argsSchema, not both');
  }
  const schema = def.argsSchema;
  if (schema !== undefined && !isStandardSchema(schema)) {
    throw fail('argsSchema must be a Standard Schema validator (zod 4, valibot, ArkType)');
  }
  const args = schema
    ? orFail(() => argumentsOf(schema), 'invalid argsSchema', fail)
    : (def.arguments ?? []);
  const seen = new Set<string>();
  for (const arg of args) {
    if (typeof arg.name !== 'string' || arg.name === '' || seen.has(arg.name)) {
      throw fail(`argument names must be unique and non-empty`);
    }
    seen.add(arg.name);
  }
  const prompt: Prompt = { name: def.name, description: def.description };
  Object.assign(prompt, displayFieldsOf(def, fail));
  if (args.length > 0) {
    prompt.arguments = args.map(({ name, description, required }) => {
      const listed: NonNullable<Prompt['arguments']>[number] = { name };
      if (description !== undefined) listed.description = description;
      if (required !== undefined) listed.required = required;
      return listed;
    });
  }
  const entry: McpPromptEntry = { prompt, arguments: args, invoke: lift(def.handler), source };
  if (!schema) return entry;
  return { ...entry, validate: (values) => validateStandard(schema, values, 'arguments') };
}

/* A prompt's listed arguments, from the JSON Schema its argsSchema describes itself as. */
function argumentsOf(schema: McpStandardSchema): McpPromptArgumentDefinition[] {
  const json = jsonSchemaOf(schema, 'input');
  if (!isObjectSchema(json)) throw new Error('the schema must describe an object');
  const properties = (json.properties ?? {}) as Record<string, { description?: unknown }>;
  const required = new Set(Array.isArray(json.required) ? (json.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const argument: McpPromptArgumentDefinition = { name, required: required.has(name) };
    if (typeof property?.description === 'string') argument.description = property.description;
    return argument;
  });
}

function copyOptional<T extends object>(target: T, from: object, keys: string[]): void {
  for (const key of keys) {
    const value = (from as Record<string, unknown>)[key];
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
}
