import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';
import { compileJsonSchema } from './json-schema.compiler.js';
import { JsonSchemaInputValidator } from './json-schema-input.validator.js';

const ORDER = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    line: {
      type: 'object',
      properties: { name: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
      required: ['name', 'qty'],
    },
  },
  properties: {
    customer: { type: 'string', minLength: 2 },
    items: { type: 'array', items: { $ref: '#/$defs/line' } },
  },
  required: ['customer', 'items'],
  additionalProperties: false,
};

const message = (schema: JsonSchemaObject, args: Record<string, unknown>) => {
  const result = new JsonSchemaInputValidator(schema).validate(args);
  return result.ok ? undefined : result.message;
};

describe('JsonSchemaInputValidator', () => {
  it('accepts matching arguments synchronously, returning them as they are', () => {
    const args = { customer: 'Ada', items: [{ name: 'tea', qty: 2 }] };
    expect(new JsonSchemaInputValidator(ORDER).validate(args)).toEqual({ ok: true, value: args });
  });

  it('reports each missing required property once, as "<prop> is required"', () => {
    expect(message(ORDER, { customer: 'Ada' })).toBe('items is required');
    expect(message(ORDER, {})).toBe('customer is required; items is required');
  });

  it('names a missing nested property by its dotted path', () => {
    expect(message(ORDER, { customer: 'Ada', items: [{ name: 'tea', qty: 1 }, { qty: 1 }] })).toBe(
      'items.1.name is required',
    );
  });

  it('lists missing properties before the rules other properties break', () => {
    expect(message(ORDER, { customer: 'A', items: [{ qty: 0 }] })).toBe(
      'items.0.name is required; customer must NOT have fewer than 2 characters; items.0.qty must be >= 1',
    );
  });

  it('names an undeclared property as not allowed', () => {
    expect(message(ORDER, { customer: 'Ada', items: [], coupon: 'X' })).toBe(
      'coupon is not allowed',
    );
  });

  it('lists at most five problems and counts the rest', () => {
    const schema = {
      type: 'object',
      patternProperties: { '^p': { type: 'integer' } },
    };
    const args = Object.fromEntries([...'abcdefg'].map((c) => [`p${c}`, 'x']));
    expect(message(schema, args)).toBe(
      'pa must be integer; pb must be integer; pc must be integer; pd must be integer; ' +
        'pe must be integer; and 2 more',
    );
  });

  it('reports a failed anyOf once, without the details of the branches', () => {
    const schema = {
      type: 'object',
      properties: { id: { anyOf: [{ type: 'string' }, { type: 'object', required: ['key'] }] } },
    };
    expect(message(schema, { id: {} })).toBe('id must match a schema in anyOf');
  });

  it('follows the draft named by $schema', () => {
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { n: { type: 'number' } },
      properties: { n: { $ref: '#/definitions/n' } },
    };
    expect(message(draft07, { n: 'one' })).toBe('n must be number');
  });

  it('keeps $id, and two schemas sharing one do not collide', () => {
    const a = {
      $id: 'https://example.com/same.json',
      type: 'object',
      properties: { v: { type: 'string' } },
    };
    const b = {
      $id: 'https://example.com/same.json',
      type: 'object',
      properties: { v: { type: 'number' } },
    };
    expect(message(a, { v: 's' })).toBeUndefined();
    expect(message(b, { v: 1 })).toBeUndefined();
    expect(new JsonSchemaInputValidator(a).schema).toBe(a);
  });

  it('refuses an invalid schema when it is built, not when it is called', () => {
    expect(() => new JsonSchemaInputValidator({ type: 'object', properties: 3 })).toThrow(
      /schema is invalid/,
    );
  });
});

describe('compileJsonSchema', () => {
  it('names the root value after dataVar', () => {
    const check = compileJsonSchema({ type: 'object', minProperties: 1 }, 'structuredContent');
    expect(check({})).toBe('structuredContent must NOT have fewer than 1 properties');
    expect(check({ a: 1 })).toBeUndefined();
  });
});
