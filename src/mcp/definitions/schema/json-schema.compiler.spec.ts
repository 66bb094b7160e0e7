import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchemaObject } from '../../core/protocol/mcp-types.js';
import { assertJsonSchema } from './json-schema.compiler.js';

/* What the framework did before the meta-schema's code was generated: Ajv compiles it here. */
const ajv = addFormats.default(new Ajv2020({ strict: false }));
function ajvVerdict(schema: JsonSchemaObject): string | undefined {
  try {
    if (ajv.validateSchema(schema)) return undefined;
    return `schema is invalid: ${ajv.errorsText(ajv.errors)}`;
  } catch (error) {
    return (error as Error).message;
  }
}
function verdict(schema: JsonSchemaObject): string | undefined {
  try {
    assertJsonSchema(schema);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const SCHEMAS: JsonSchemaObject[] = [
  { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  { type: 'object', properties: { text: { type: 'string' } }, required: 'text' },
  { type: 'object', properties: 3 },
  { type: 'strin' },
  { type: ['string', 'string'] },
  { type: 'object', additionalProperties: { type: 'integer', minimum: 'one' } },
  { $defs: { a: { type: 'string' } }, $ref: '#/$defs/a' },
  { $defs: { a: { type: 7 } }, $ref: '#/$defs/a' },
  { $id: 'https://example.com/a#frag', type: 'object' },
  { $anchor: '1bad' },
  { prefixItems: [], type: 'array' },
  { anyOf: [{ type: 'string' }, { type: 'number', multipleOf: 0 }] },
  { enum: [1, 1] },
  { type: 'object', dependentRequired: { a: ['b', 'b'] } },
  { type: 'object', properties: { a: { $dynamicRef: '#meta' } } },
  { unevaluatedProperties: false, properties: { a: true } },
  { if: { type: 'string' }, then: { minLength: -1 } },
  { contentMediaType: 3 },
  { deprecated: 'yes' },
  { definitions: { a: { type: 'nope' } } },
  { dependencies: { a: ['b'], c: { type: 'x' } } },
  true as unknown as JsonSchemaObject,
  { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: 'a' },
  { $schema: 'https://json-schema.org/draft/2020-12/schema#', type: 'object' },
  // A dialect Ajv does not know is refused, as it was.
  { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object' },
  { $schema: 'https://example.com/my-dialect', type: 'object' },
];

describe('assertJsonSchema (2020-12, Ajv standalone code)', () => {
  it.each(SCHEMAS.map((schema) => [JSON.stringify(schema), schema]))(
    'gives the verdict Ajv gives when it compiles the meta-schema itself: %s',
    (_, schema) => {
      expect(verdict(schema)).toBe(ajvVerdict(schema));
    },
  );

  it('refuses what the meta-schema refuses, with Ajv’s words', () => {
    expect(verdict({ type: 'object', required: 'text' })).toBe(
      'schema is invalid: data/required must be array',
    );
    expect(verdict({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
  });

  it('checks a draft-07 schema against draft-07, not 2020-12', () => {
    const draft07 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      items: [{}],
      type: 'array',
    };
    expect(verdict(draft07)).toBeUndefined();
    expect(verdict({ ...draft07, items: 3 })).toMatch(/^schema is invalid: /);
  });
});
