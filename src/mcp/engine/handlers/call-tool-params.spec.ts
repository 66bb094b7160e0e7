import { CallToolRequestParamsSchema } from '@modelcontextprotocol/core';
import fc from 'fast-check';
import { jest } from '@jest/globals';
import { callToolParams } from './call-tool-params.js';

/* The same value, down to the order of every object's keys and its prototype. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b);
  }
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const keys = Reflect.ownKeys(a);
  const other = Reflect.ownKeys(b);
  if (keys.length !== other.length || keys.some((key, i) => key !== other[i])) return false;
  return keys.every((key) => same((a as never)[key], (b as never)[key]));
}

/* Params as JSON.parse gives them (own `__proto__` keys included), near the commonest shapes. */
const jsonValue = fc.jsonValue({ maxDepth: 2 });
const key = fc.oneof(
  fc.constantFrom('name', 'arguments', '__proto__', '_meta', 'task', '0', 'progressToken'),
  fc.string(),
);
const args = fc.oneof(
  fc.dictionary(key, jsonValue, { maxKeys: 4 }),
  jsonValue,
  fc.constant({ ['__proto__']: 1 }),
);
const progressToken = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(-0, 2 ** 53, -(2 ** 53), 1.5),
  jsonValue,
);
const meta = fc.oneof(
  fc.record(
    {
      progressToken,
      'io.modelcontextprotocol/related-task': fc.oneof(
        fc.record({ taskId: fc.string() }),
        jsonValue,
      ),
      'io.modelcontextprotocol/protocolVersion': fc.constant('2026-07-28'),
      extra: jsonValue,
    },
    { requiredKeys: [] },
  ),
  fc.dictionary(key, jsonValue, { maxKeys: 3 }),
  jsonValue,
);
const params = fc
  .record(
    {
      _meta: meta,
      name: fc.oneof(fc.string(), jsonValue),
      arguments: args,
      extra: fc.dictionary(key, jsonValue, { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  )
  // Keys in any order, as a client may send them.
  .chain((fields) => fc.shuffledSubarray(Object.entries(fields), { minLength: 0 }))
  .map((entries) => {
    const merged: Record<string, unknown> = {};
    for (const [name, value] of entries) {
      if (name === 'extra') Object.assign(merged, value);
      else merged[name] = value;
    }
    return JSON.parse(JSON.stringify(merged)) as unknown;
  });

describe('callToolParams', () => {
  it('answers every params value as the official schema does, key order included', () => {
    fc.assert(
      fc.property(fc.oneof(params, jsonValue), (value) => {
        const ours = callToolParams.safeParse(value);
        const official = CallToolRequestParamsSchema.safeParse(value);
        expect(ours.success).toBe(official.success);
        if (ours.success && official.success) expect(same(ours.data, official.data)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('answers { name, arguments } and an envelope without the schema, with copies', () => {
    const schema = jest.spyOn(CallToolRequestParamsSchema, 'safeParse');
    try {
      const given = JSON.parse('{"name":"echo","arguments":{"text":"hi","n":[1]}}') as {
        arguments: object;
      };
      const parsed = callToolParams.safeParse(given);
      expect(schema).not.toHaveBeenCalled();
      expect(parsed).toEqual({
        success: true,
        data: { name: 'echo', arguments: { text: 'hi', n: [1] } },
      });
      expect((parsed.data as { arguments: object }).arguments).not.toBe(given.arguments);
      const modern = JSON.parse(
        '{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":7}}',
      ) as { _meta: object };
      const withMeta = callToolParams.safeParse(modern);
      expect(schema).not.toHaveBeenCalled();
      expect(Object.keys(withMeta.data as object)).toEqual(['_meta', 'name']);
      expect(Object.keys((withMeta.data as { _meta: object })._meta)).toEqual([
        'progressToken',
        'io.modelcontextprotocol/protocolVersion',
      ]);
      expect((withMeta.data as { _meta: object })._meta).not.toBe(modern._meta);
    } finally {
      schema.mockRestore();
    }
  });

  it('leaves a __proto__ argument, a related task, a bad token, task or a bad name to the schema', () => {
    const schema = jest.spyOn(CallToolRequestParamsSchema, 'safeParse');
    try {
      for (const text of [
        '{"name":"echo","arguments":{"__proto__":{"polluted":true}}}',
        '{"name":"echo","_meta":{"io.modelcontextprotocol/related-task":{"taskId":"t"}}}',
        '{"name":"echo","_meta":{"progressToken":1.5}}',
        '{"name":"echo","task":{"ttl":1000}}',
        '{"name":1}',
      ]) {
        callToolParams.safeParse(JSON.parse(text));
      }
      expect(schema).toHaveBeenCalledTimes(5);
      const parsed = callToolParams.safeParse(
        JSON.parse('{"name":"echo","arguments":{"__proto__":{"polluted":true}}}'),
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf((parsed.data as { arguments: object }).arguments)).toBe(
        Object.prototype,
      );
    } finally {
      schema.mockRestore();
    }
  });
});
