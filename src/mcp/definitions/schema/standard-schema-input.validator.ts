import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';
import type { InputValidation, InputValidator } from './input-validator.js';
import { assertJsonSchema } from './json-schema.compiler.js';
import { jsonSchemaOf, validateStandard, type McpStandardSchema } from './standard-schema.js';

/**
 * A Standard Schema validator as a tool's input: listed as the JSON Schema it describes itself
 * as (converted once, here), and enforced by the validator itself, whose output (transforms and
 * defaults applied) is what the handler receives.
 */
export class StandardSchemaInputValidator implements InputValidator {
  readonly schema: JsonSchemaObject;

  constructor(private readonly validator: McpStandardSchema) {
    const schema = jsonSchemaOf(validator, 'input');
    if (schema.type !== 'object') {
      throw new Error('the schema must describe an object (its JSON Schema has type "object")');
    }
    assertJsonSchema(schema);
    this.schema = schema;
  }

  validate(args: Record<string, unknown>): InputValidation | Promise<InputValidation> {
    return validateStandard(this.validator, args, 'arguments');
  }
}
