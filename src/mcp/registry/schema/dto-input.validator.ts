import type { Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, type ValidationError } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import type { JsonSchemaObject } from '../../protocol/mcp-types.js';
import type { InputValidation, InputValidator } from './input-validator.js';

/**
 * Validates arguments with a class-validator DTO. The listed JSON Schema is
 * derived from the same decorators, so the two cannot drift apart; unknown
 * properties are refused, matching `additionalProperties: false`.
 */
export class DtoInputValidator implements InputValidator {
  readonly schema: JsonSchemaObject;

  constructor(private readonly dto: Type<object>) {
    const derived = targetConstructorToSchema(dto) as JsonSchemaObject;
    this.schema = { type: 'object', properties: {}, ...derived, additionalProperties: false };
  }

  async validate(args: Record<string, unknown>): Promise<InputValidation> {
    const instance = plainToInstance(this.dto, args);
    const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true });
    if (errors.length === 0) return { ok: true, value: instance };
    return { ok: false, message: describe(errors).join('; ') };
  }
}

function describe(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((error) => {
    const at = path ? `${path}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => `${at}: ${text}`);
    return [...own, ...describe(error.children ?? [], at)];
  });
}
