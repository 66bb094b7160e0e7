import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import {
  isStandardSchema,
  issuesMessage,
  jsonSchemaOf,
  validateStandard,
} from './standard-schema.js';

describe('Standard Schema', () => {
  it('tells a validator from a JSON Schema and a DTO class', () => {
    expect(isStandardSchema(z.object({}))).toBe(true);
    expect(isStandardSchema(v.object({}))).toBe(true);
    expect(isStandardSchema(type({}))).toBe(true); // a function
    expect(isStandardSchema({ type: 'object' })).toBe(false);
    expect(isStandardSchema(class Dto {})).toBe(false);
    expect(isStandardSchema({ '~standard': { version: 2, validate: () => ({}) } })).toBe(false);
  });

  it('describes the input and the output side of a transform apart', () => {
    const schema = z.object({ n: z.string().transform((text) => text.length) });
    expect(jsonSchemaOf(schema, 'input')).toMatchObject({ properties: { n: { type: 'string' } } });
    expect(() => jsonSchemaOf(schema, 'output')).toThrow(); // zod cannot describe a transform's output
  });

  it('writes one line per issue, the path first, said once', () => {
    expect(
      issuesMessage(
        [
          { message: 'Invalid email', path: ['customer', 'email'] },
          { message: 'items[0].qty must be positive', path: ['items', 0, 'qty'] },
          {
            message: 'customer.name must be non-empty',
            path: [{ key: 'customer' }, { key: 'name' }],
          },
          { message: 'Expected an object' },
          { message: 'Invalid email', path: ['customer', 'email'] },
        ],
        'arguments',
      ),
    ).toBe(
      [
        'customer.email: Invalid email',
        'items.0.qty: must be positive',
        'customer.name: must be non-empty',
        'arguments: Expected an object',
      ].join('\n'),
    );
  });

  it('lists at most five issues and counts the rest', () => {
    const issues = Array.from({ length: 8 }, (_, i) => ({ message: 'bad', path: [`f${i}`] }));
    const lines = issuesMessage(issues, 'arguments').split('\n');
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe('and 3 more');
  });

  it('validates synchronously where the validator does, asynchronously where it must', async () => {
    const sync = validateStandard(z.object({ a: z.number() }), { a: 1 }, 'arguments');
    expect(sync).toEqual({ ok: true, value: { a: 1 } });
    const slow = z.object({ a: z.number().refine(async (n) => n > 0, 'must be positive') });
    const later = validateStandard(slow, { a: -1 }, 'arguments');
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toEqual({ ok: false, message: 'a: must be positive' });
  });
});
