import type * as ClassTransformer from 'class-transformer';
import type * as ClassTransformerStorage from 'class-transformer/cjs/storage.js';
import type * as ClassValidator from 'class-validator';
import type * as ClassValidatorJsonSchema from 'class-validator-jsonschema';
import { moduleRequire } from './optional-libraries.js';

/** What DTO tools use of class-validator, class-transformer and class-validator-jsonschema. */
export interface DtoLibraries {
  readonly plainToInstance: typeof ClassTransformer.plainToInstance;
  readonly defaultMetadataStorage: typeof ClassTransformerStorage.defaultMetadataStorage;
  readonly validate: typeof ClassValidator.validate;
  readonly getMetadataStorage: typeof ClassValidator.getMetadataStorage;
  readonly ValidationTypes: typeof ClassValidator.ValidationTypes;
  readonly targetConstructorToSchema: typeof ClassValidatorJsonSchema.targetConstructorToSchema;
}

let loaded: DtoLibraries | undefined;

/**
 * The DTO machinery, loaded the first time a DTO tool is registered. The
 * three packages are about 350 modules (validator and libphonenumber-js come
 * with class-validator): a server whose tools all take JSON Schema, like most
 * stdio servers, never pays for them at start. They are CommonJS, so
 * `require` loads them synchronously (registration is synchronous) and hands
 * back the same instances an app's own `import` of them gets: the decorators
 * on its DTOs and this code share one metadata storage.
 */
export function dtoLibraries(): DtoLibraries {
  if (loaded) return loaded;
  const load = moduleRequire();
  const transformer = load('class-transformer') as typeof ClassTransformer;
  const storage = load('class-transformer/cjs/storage.js') as typeof ClassTransformerStorage;
  const validator = load('class-validator') as typeof ClassValidator;
  const jsonSchema = load('class-validator-jsonschema') as typeof ClassValidatorJsonSchema;
  loaded = {
    plainToInstance: transformer.plainToInstance,
    defaultMetadataStorage: storage.defaultMetadataStorage,
    validate: validator.validate,
    getMetadataStorage: validator.getMetadataStorage,
    ValidationTypes: validator.ValidationTypes,
    targetConstructorToSchema: jsonSchema.targetConstructorToSchema,
  };
  return loaded;
}
