import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';

/** The result of validating a tool's arguments. */
export type InputValidation = { ok: true; value: unknown } | { ok: false; message: string };

/** A tool's input contract: the schema it lists and the check it enforces. */
export interface InputValidator {
  /** The JSON Schema shown in `tools/list`. */
  readonly schema: JsonSchemaObject;
  /** Validates (and for DTOs transforms) raw arguments; synchronous where the validator is. */
  validate(args: Record<string, unknown>): InputValidation | Promise<InputValidation>;
}
