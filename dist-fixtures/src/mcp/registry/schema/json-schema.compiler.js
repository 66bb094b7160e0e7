import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
/*
 * One validator instance per dialect, shared by every tool: schemas are
 * compiled once at registration, never per call. 2020-12 is the default
 * dialect (the MCP spec's); a schema that names draft-07 gets draft-07.
 * No `loadSchema` is configured, so a `$ref` to the network is never fetched.
 */
const options = { strict: false, allErrors: false, validateSchema: true };
const ajv2020 = addFormats.default(new Ajv2020(options));
const ajvDraft07 = addFormats.default(new Ajv(options));
function instanceFor(schema) {
    const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
    return /draft-0[4-7]/.test(dialect) ? ajvDraft07 : ajv2020;
}
/**
 * Compiles a JSON Schema into a check. Throws (with Ajv's message) when the
 * schema itself is invalid, so a bad definition fails at registration.
 */
export function compileJsonSchema(schema, dataVar) {
    const ajv = instanceFor(schema);
    // Ajv caches compiled schemas by `$id`; two tools sharing an id must not collide.
    const { $id: _id, ...withoutId } = schema;
    const validate = ajv.compile(withoutId);
    return (value) => validate(value) ? undefined : ajv.errorsText(validate.errors, { dataVar, separator: '; ' });
}
//# sourceMappingURL=json-schema.compiler.js.map