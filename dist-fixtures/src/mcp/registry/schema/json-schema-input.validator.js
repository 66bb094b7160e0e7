import { compileJsonSchema } from './json-schema.compiler.js';
/** Validates arguments against a raw JSON Schema, which is listed verbatim. */
export class JsonSchemaInputValidator {
    constructor(schema) {
        this.schema = schema;
        this.check = compileJsonSchema(schema, 'arguments');
    }
    async validate(args) {
        const message = this.check(args);
        return message === undefined ? { ok: true, value: args } : { ok: false, message };
    }
}
//# sourceMappingURL=json-schema-input.validator.js.map