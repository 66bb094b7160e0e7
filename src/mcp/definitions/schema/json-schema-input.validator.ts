import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';
import type { InputValidation, InputValidator } from './input-validator.js';
import { compileJsonSchema, type JsonSchemaCheck } from './json-schema.compiler.js';

/** Validates arguments against a raw JSON Schema, which is listed verbatim. */
export class JsonSchemaInputValidator implements InputValidator {
  private readonly check: JsonSchemaCheck;

  constructor(readonly schema: JsonSchemaObject) {
    this.check = compileJsonSchema(schema, 'arguments');
  }

  validate(args: Record<string, unknown>): InputValidation {
    const message = this.check(args);
    return message === undefined ? { ok: true, value: args } : { ok: false, message };
  }
}
