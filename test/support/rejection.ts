/**
 * What `promise` rejects with; a promise that resolves fails the test. Checked by its fields, it
 * also serves where `rejects.toThrow` cannot: an error made in another realm (a native driver
 * that kept the error class of the first spec file to load it) is no `instanceof Error` here,
 * and `toThrow` takes such a rejection for none at all.
 */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: number };
  }
  throw new Error('expected a rejection');
}
