/*
 * class-transformer keeps its `@Type()` metadata in a singleton it does not
 * export from its entry point; class-validator-jsonschema documents importing
 * it from this path. The CommonJS build is the one the entry point loads, so
 * this is the same instance the decorators write to.
 */
declare module 'class-transformer/cjs/storage.js' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
  export const defaultMetadataStorage: MetadataStorage;
}
