import { createRequire } from 'node:module';

/*
 * The package's CommonJS build (for Jest's CommonJS runtime) has a `require`
 * of its own, and it must be that one: under Jest it is Jest's module
 * registry, which gave the app's DTOs their class-validator. Node's
 * `createRequire` would load a second copy with an empty metadata storage.
 */
declare const require: NodeJS.Require | undefined;

/** The `require` that loads what the app itself would get (see above). */
export const moduleRequire = (): NodeJS.Require =>
  typeof require === 'function' ? require : createRequire(import.meta.url);

/**
 * A library the app brings when it uses it (valibot's JSON Schema converter, say), loaded
 * synchronously the first time it is needed, since registration is synchronous. Its absence is
 * an error that says what to install; `usedFor` says what needs it.
 */
export function optionalLibrary<T>(name: string, usedFor: string): T {
  try {
    return moduleRequire()(name) as T;
  } catch (error) {
    if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(`${usedFor} need the package ${name}: npm install ${name}`, { cause: error });
  }
}
