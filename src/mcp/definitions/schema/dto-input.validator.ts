import type { Type } from '@nestjs/common';
import type { ValidationError } from 'class-validator';
import { dtoLibraries } from './dto-libraries.js';
import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';
import { createDtoContract, type DtoShape } from './dto-schema.factory.js';
import type { InputValidation, InputValidator } from './input-validator.js';
import { joinProblems, unknownPropertyProblem } from './validation-message.js';

const OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  validationError: { target: false, value: false },
} as const;

/**
 * Validates arguments with a class-validator DTO. The listed JSON Schema is
 * derived from the same decorators, so the two cannot drift apart; unknown
 * properties are refused, matching `additionalProperties: false`. A property
 * without `@IsOptional()` that is absent is reported as `<path> is required`,
 * once, instead of every rule it would fail.
 */
export class DtoInputValidator implements InputValidator {
  readonly schema: JsonSchemaObject;
  private readonly shape: DtoShape;

  constructor(private readonly dto: Type<object>) {
    ({ schema: this.schema, shape: this.shape } = createDtoContract(dto));
  }

  async validate(args: Record<string, unknown>): Promise<InputValidation> {
    // Cheap first: class-transformer's cost grows with the square of the keys it is given.
    const unknown = unknownProperty(this.shape, args, []);
    if (unknown) return { ok: false, message: joinProblems([], [unknownPropertyProblem(unknown)]) };
    const missing = missingProperties(this.shape, args, []);
    const { plainToInstance, validate } = dtoLibraries();
    const instance = plainToInstance(this.dto, args);
    const errors = await validate(instance, OPTIONS);
    if (errors.length === 0 && missing.length === 0) return { ok: true, value: instance };
    const absent = new Set(missing);
    const others = describe(errors, []).filter(({ path }) => !absent.has(path));
    return {
      ok: false,
      message: joinProblems(
        missing,
        others.map(({ text }) => text),
      ),
    };
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The dotted path of the first property no DTO declares, nested DTOs included. */
function unknownProperty(shape: DtoShape, value: unknown, at: string[]): string | undefined {
  if (!isObject(value)) return undefined;
  for (const key in value) {
    if (!shape.known.has(key)) return [...at, key].join('.');
  }
  for (const [property, { shape: child, each }] of shape.nested) {
    const nested = value[property];
    const items = each && Array.isArray(nested) ? nested : each ? [] : [nested];
    for (let index = 0; index < items.length; index++) {
      const path = each ? [...at, property, String(index)] : [...at, property];
      const found = unknownProperty(child, items[index], path);
      if (found) return found;
    }
  }
  return undefined;
}

/** The dotted paths of required properties that are absent, nested DTOs included. */
function missingProperties(shape: DtoShape, value: unknown, at: string[]): string[] {
  if (!isObject(value)) return [];
  const missing = shape.required
    .filter((property) => value[property] === undefined)
    .map((property) => [...at, property].join('.'));
  for (const [property, { shape: child, each }] of shape.nested) {
    const nested = value[property];
    if (each && Array.isArray(nested)) {
      nested.forEach((item, index) => {
        missing.push(...missingProperties(child, item, [...at, property, String(index)]));
      });
    } else if (!each) {
      missing.push(...missingProperties(child, nested, [...at, property]));
    }
  }
  return missing;
}

/*
 * One problem per property: class-validator lists a property's failed rules
 * bottom-up, so the last is the decorator written first (usually the type
 * check: "must be a string" says more than a length rule it also breaks).
 */
function describe(errors: ValidationError[], at: string[]): { path: string; text: string }[] {
  return errors.flatMap((error) => {
    const segments = [...at, error.property];
    const path = segments.join('.');
    const rules = Object.entries(error.constraints ?? {});
    const own = rules.length === 0 ? [] : [{ path, text: phrase(error, rules, path) }];
    return [...own, ...describe(error.children ?? [], segments)];
  });
}

function phrase(error: ValidationError, rules: [string, string][], path: string): string {
  const [rule, message] = rules[rules.length - 1];
  if (rule === 'whitelistValidation') return unknownPropertyProblem(path);
  // Default messages name the bare property ("name must be…", "each value in tags…").
  if (message.startsWith(`${error.property} `)) return path + message.slice(error.property.length);
  const inner = ` ${error.property} `;
  return message.includes(inner)
    ? message.replace(inner, () => ` ${path} `)
    : `${path}: ${message}`;
}
