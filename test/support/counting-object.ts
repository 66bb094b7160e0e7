/**
 * An object of `keys` numeric members named `<prefix><n>`, behind a Proxy that
 * counts every member read: how a test tells that a bound stopped reading early.
 */
export function countingObject(keys: number, prefix = 'k') {
  const target: Record<string, number> = {};
  for (let key = 0; key < keys; key++) target[`${prefix}${key}`] = 1;
  const reads = { count: 0 };
  const proxy = new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === 'string' && key in object) reads.count++;
      return Reflect.get(object, key, receiver) as unknown;
    },
  });
  return { proxy, reads };
}
