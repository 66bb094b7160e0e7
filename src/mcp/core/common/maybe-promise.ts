/** A value, or a promise of it: what the hot path returns when the work may be synchronous. */
export type MaybePromise<T> = T | Promise<T>;

/** True for anything with a `then` method (a promise or another thenable). */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}
