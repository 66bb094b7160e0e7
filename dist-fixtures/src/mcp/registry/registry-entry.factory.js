import { McpDefinitionError } from './registry.errors.js';
import { DtoInputValidator } from './schema/dto-input.validator.js';
import { JsonSchemaInputValidator } from './schema/json-schema-input.validator.js';
import { compileJsonSchema } from './schema/json-schema.compiler.js';
import { UriTemplate } from './uri-template.js';
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/* Handlers are wrapped so a synchronous throw and a rejection look the same. */
const lift = (fn) => async (...args) => fn(...args);
/** Validates a tool definition and compiles its schemas; throws `McpDefinitionError`. */
export function createToolEntry(def, source) {
    const fail = (problem) => new McpDefinitionError('tool', source, problem);
    if (typeof def.name !== 'string' || !NAME.test(def.name)) {
        throw fail(`name ${JSON.stringify(def.name)} must be 1-128 characters of [A-Za-z0-9_.-]`);
    }
    if (typeof def.description !== 'string' || def.description.trim() === '') {
        throw fail(`tool "${def.name}" needs a non-empty description`);
    }
    const input = createInputValidator(def.inputSchema, fail);
    let output;
    if (def.outputSchema !== undefined) {
        if (!isObjectSchema(def.outputSchema))
            throw fail('outputSchema must have type "object"');
        output = compileOrFail(def.outputSchema, 'structuredContent', fail);
    }
    const inputSchema = input.schema;
    const tool = { name: def.name, description: def.description, inputSchema };
    if (def.title !== undefined)
        tool.title = def.title;
    if (def.outputSchema !== undefined)
        tool.outputSchema = def.outputSchema;
    if (def.annotations !== undefined)
        tool.annotations = def.annotations;
    return {
        tool,
        // A `false` or a `readOnlyHint` never cancels a `true`: either flag makes it sensitive.
        sensitive: def.annotations?.destructiveHint === true || def.sensitive === true,
        input,
        output,
        completions: { ...def.completions },
        invoke: lift(def.handler),
        source,
    };
}
function createInputValidator(input, fail) {
    if (input === undefined) {
        return new JsonSchemaInputValidator({ type: 'object', additionalProperties: false });
    }
    if (typeof input === 'function')
        return new DtoInputValidator(input);
    if (!isObjectSchema(input))
        throw fail('input schema must be a JSON Schema with type "object"');
    compileOrFail(input, 'arguments', fail);
    return new JsonSchemaInputValidator(input);
}
function compileOrFail(schema, dataVar, fail) {
    try {
        return compileJsonSchema(schema, dataVar);
    }
    catch (error) {
        throw fail(`invalid JSON Schema: ${error.message}`);
    }
}
function isObjectSchema(schema) {
    return (typeof schema === 'object' &&
        schema !== null &&
        !Array.isArray(schema) &&
        schema.type === 'object');
}
/** Validates a static resource definition. */
export function createResourceEntry(def, source) {
    const fail = (problem) => new McpDefinitionError('resource', source, problem);
    if (typeof def.uri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(def.uri)) {
        throw fail(`uri ${JSON.stringify(def.uri)} must be an absolute URI`);
    }
    if (typeof def.name !== 'string' || def.name === '')
        throw fail('name must be non-empty');
    const resource = { uri: def.uri, name: def.name };
    copyOptional(resource, def, ['title', 'description', 'mimeType']);
    return { resource, invoke: lift(def.handler), source };
}
/** Validates a resource template definition and compiles its matcher. */
export function createResourceTemplateEntry(def, source) {
    const fail = (problem) => new McpDefinitionError('resource template', source, problem);
    if (typeof def.uriTemplate !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(def.uriTemplate)) {
        throw fail(`uriTemplate ${JSON.stringify(def.uriTemplate)} must be an absolute URI template`);
    }
    if (typeof def.name !== 'string' || def.name === '')
        throw fail('name must be non-empty');
    let matcher;
    try {
        matcher = new UriTemplate(def.uriTemplate);
    }
    catch (error) {
        throw fail(`uriTemplate ${def.uriTemplate}: ${error.message}`);
    }
    for (const variable of Object.keys(def.complete ?? {})) {
        if (!matcher.variables.includes(variable))
            throw fail(`completer for unknown variable ${variable}`);
    }
    const template = { uriTemplate: def.uriTemplate, name: def.name };
    copyOptional(template, def, ['title', 'description', 'mimeType']);
    return { template, matcher, completions: { ...def.complete }, invoke: lift(def.handler), source };
}
/** Validates a prompt definition. */
export function createPromptEntry(def, source) {
    const fail = (problem) => new McpDefinitionError('prompt', source, problem);
    if (typeof def.name !== 'string' || !NAME.test(def.name)) {
        throw fail(`name ${JSON.stringify(def.name)} must be 1-128 characters of [A-Za-z0-9_.-]`);
    }
    if (typeof def.description !== 'string' || def.description.trim() === '') {
        throw fail(`prompt "${def.name}" needs a non-empty description`);
    }
    const args = def.arguments ?? [];
    const seen = new Set();
    for (const arg of args) {
        if (typeof arg.name !== 'string' || arg.name === '' || seen.has(arg.name)) {
            throw fail(`argument names must be unique and non-empty`);
        }
        seen.add(arg.name);
    }
    const prompt = { name: def.name, description: def.description };
    if (def.title !== undefined)
        prompt.title = def.title;
    if (args.length > 0) {
        prompt.arguments = args.map(({ name, description, required }) => {
            const listed = { name };
            if (description !== undefined)
                listed.description = description;
            if (required !== undefined)
                listed.required = required;
            return listed;
        });
    }
    return { prompt, arguments: args, invoke: lift(def.handler), source };
}
function copyOptional(target, from, keys) {
    for (const key of keys) {
        const value = from[key];
        if (value !== undefined)
            target[key] = value;
    }
}
//# sourceMappingURL=registry-entry.factory.js.map