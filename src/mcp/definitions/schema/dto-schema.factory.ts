import type { Type } from '@nestjs/common';
import { dtoLibraries } from './dto-libraries.js';
import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';

/** What a DTO class requires and which of its properties hold nested DTOs. */
export interface DtoShape {
  readonly required: readonly string[];
  /** Every declared property: anything else is refused before class-transformer runs. */
  readonly known: ReadonlySet<string>;
  readonly nested: ReadonlyMap<string, { readonly shape: DtoShape; readonly each: boolean }>;
}

/** A DTO's listed JSON Schema (self-contained) and its shape, derived together. */
export interface DtoContract {
  readonly schema: JsonSchemaObject;
  readonly shape: DtoShape;
}

/** A DTO class (class-validator keys its metadata by the constructor). */
type DtoClass = abstract new (...args: never[]) => object;

type Shape = {
  required: string[];
  known: Set<string>;
  nested: Map<string, { shape: Shape; each: boolean }>;
};

const conversion = () => ({
  // 2020-12 keeps subschemas under `$defs`; every referenced class is put there.
  refPointerPrefix: '#/$defs/',
  // Resolves `@Type(() => X)`, which is what gives arrays of DTOs their item class.
  classTransformerMetadataStorage: dtoLibraries().defaultMetadataStorage,
});

/**
 * Derives a DTO's JSON Schema with every nested DTO (nested of nested,
 * arrays of them, recursive ones) under `$defs`, so the schema compiles on
 * its own. Unknown properties are refused at every level, as class-validator
 * does with `forbidNonWhitelisted`. Throws when a `@ValidateNested()`
 * property has no `@Type()`: class-transformer would leave it a plain object
 * and its properties would never be validated.
 */
export function createDtoContract(dto: Type<object>): DtoContract {
  const schemas = new Map<DtoClass, JsonSchemaObject>();
  const shapes = new Map<DtoClass, Shape>();
  const byName = new Map<string, DtoClass>();
  const referenced = new Set<DtoClass>();

  const { targetConstructorToSchema } = dtoLibraries();
  const options = conversion();
  const visit = (target: DtoClass): Shape => {
    const seen = shapes.get(target);
    if (seen) return seen;
    const namesake = byName.get(target.name);
    if (namesake) throw new Error(`two nested DTO classes are named ${target.name}`);
    byName.set(target.name, target);
    const derived = targetConstructorToSchema(target, options) as JsonSchemaObject;
    const schema = { type: 'object', properties: {}, ...derived, additionalProperties: false };
    const known = new Set(Object.keys((schema.properties ?? {}) as object));
    const shape: Shape = { required: requiredOf(schema), known, nested: new Map() };
    shapes.set(target, shape);
    schemas.set(target, schema);
    for (const { propertyName, each } of nestedProperties(target)) {
      const child = nestedClass(target, propertyName);
      referenced.add(child);
      shape.nested.set(propertyName, { shape: visit(child), each: each === true });
    }
    return shape;
  };

  const shape = visit(dto);
  const defs = [...schemas].filter(([target]) => referenced.has(target));
  const root = schemas.get(dto)!;
  const schema = defs.length === 0 ? root : { ...root, $defs: namedDefs(defs) };
  return { schema, shape };
}

function namedDefs(defs: [DtoClass, JsonSchemaObject][]): Record<string, JsonSchemaObject> {
  return Object.fromEntries(defs.map(([target, schema]) => [target.name, schema]));
}

function requiredOf(schema: JsonSchemaObject): string[] {
  return Array.isArray(schema.required) ? (schema.required as string[]) : [];
}

function nestedProperties(target: DtoClass) {
  const { getMetadataStorage, ValidationTypes } = dtoLibraries();
  return getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .filter((meta) => meta.type === ValidationTypes.NESTED_VALIDATION);
}

function nestedClass(target: DtoClass, property: string): DtoClass {
  const { defaultMetadataStorage } = dtoLibraries();
  const child: unknown = defaultMetadataStorage.findTypeMetadata(target, property)?.typeFunction();
  if (typeof child !== 'function' || child === Object || child === Array || !child.prototype) {
    throw new Error(
      `${target.name}.${property} is @ValidateNested() but has no @Type(() => SomeDto) ` +
        '(class-transformer), so its properties would not be validated',
    );
  }
  return child as DtoClass;
}
