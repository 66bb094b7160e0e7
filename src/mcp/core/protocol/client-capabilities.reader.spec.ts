import { ClientCapabilitiesSchema } from '@modelcontextprotocol/core';
import { jest } from '@jest/globals';
import fc from 'fast-check';
import {
  KEPT_DECLARATIONS,
  MAX_KEPT_TEXT,
  readClientCapabilities,
} from './client-capabilities.reader.js';

/* A declaration as a client sends it: parsed from JSON, a fresh object each time. */
const declare = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('readClientCapabilities', () => {
  it('gives what the official schema gives, and refuses what it refuses', () => {
    const capability = fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 }));
    const declaration = fc.oneof(
      fc.record(
        {
          elicitation: fc.oneof(capability, fc.record({ form: capability, url: capability })),
          sampling: capability,
          roots: fc.oneof(capability, fc.record({ listChanged: fc.jsonValue({ maxDepth: 0 }) })),
          tasks: capability,
          extensions: fc.oneof(capability, fc.dictionary(fc.string(), capability)),
          experimental: capability,
        },
        { requiredKeys: [] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(declaration, (value) => {
        const official = ClientCapabilitiesSchema.safeParse(declare(value));
        // Twice: the second answer comes from what the first one kept.
        for (let i = 0; i < 2; i++) {
          const ours = readClientCapabilities(declare(value));
          expect(ours).toEqual(official.success ? official.data : undefined);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it('parses a declaration once, and hands every request the same frozen object', () => {
    const schema = jest.spyOn(ClientCapabilitiesSchema, 'safeParse');
    try {
      const first = readClientCapabilities(declare({ elicitation: {}, roots: { n: 'once' } }));
      const second = readClientCapabilities(declare({ elicitation: {}, roots: { n: 'once' } }));
      expect(schema).toHaveBeenCalledTimes(1);
      expect(second).toBe(first);
      expect(first).toEqual({ elicitation: { form: {} }, roots: {} });
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen(first!.elicitation)).toBe(true);
      expect(() => {
        (first as { sampling?: object }).sampling = {};
      }).toThrow(TypeError);
    } finally {
      schema.mockRestore();
    }
  });

  it(`keeps at most ${KEPT_DECLARATIONS} declarations, and none longer than ${MAX_KEPT_TEXT} characters`, () => {
    const schema = jest.spyOn(ClientCapabilitiesSchema, 'safeParse');
    try {
      const nth = (n: number) => declare({ extensions: { [`x-${n}`]: {} } });
      for (let n = 0; n <= KEPT_DECLARATIONS; n++) readClientCapabilities(nth(n));
      schema.mockClear();
      // The newest are kept; the first, the oldest, went when the last came.
      readClientCapabilities(nth(KEPT_DECLARATIONS));
      expect(schema).toHaveBeenCalledTimes(0);
      readClientCapabilities(nth(0));
      expect(schema).toHaveBeenCalledTimes(1);

      const long = declare({ extensions: { ['x'.repeat(MAX_KEPT_TEXT)]: {} } });
      readClientCapabilities(long);
      readClientCapabilities(long);
      expect(schema).toHaveBeenCalledTimes(3);
    } finally {
      schema.mockRestore();
    }
  });
});
