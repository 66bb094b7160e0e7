import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { argumentsDigest, canonicalArguments } from './arguments-digest.js';
import { sha256Hex } from '../../core/common/sha256.js';

/* canonicalize's own answer, or none where it throws: what canonicalArguments must give. */
function expected(value: unknown): string | undefined {
  try {
    return canonicalize(value ?? {}) ?? 'null';
  } catch {
    return undefined;
  }
}

function actual(value: unknown): string | undefined {
  return canonicalArguments(value);
}

/* Keys near the edges: escapes, surrogates, code-unit order, names JSON.parse makes own keys. */
const key = fc.oneof(
  fc.constantFrom('__proto__', 'toJSON', '', 'a', 'B', 'b', '10', '9', 'é', 'ﬁ', '😀', '\ud800'),
  fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028'),
  fc.string({ unit: 'binary', maxLength: 6 }),
);
const primitive = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 12 }),
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, 1e21, 1e-7, 5e-324, 2 ** 53, NaN, Infinity, -Infinity),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(undefined, '\ud800', 'a\udc00b', '😀'),
);
const value = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(key, primitive, { maxKeys: 6 }) },
  fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
  primitive,
);

describe('canonicalArguments', () => {
  it('gives canonicalize’s text (or its error) for any value, key order and prototype aside', () => {
    fc.assert(
      fc.property(value, (drawn) => {
        expect(actual(drawn)).toBe(expected(drawn));
        // As JSON.parse gives it: own `__proto__` keys, the client's key order.
        const parsed: unknown = JSON.parse(JSON.stringify(drawn ?? null));
        expect(actual(parsed)).toBe(expected(parsed));
      }),
      { numRuns: 3_000 },
    );
  });

  it('orders members by UTF-16 code unit, whatever order they came in', () => {
    expect(canonicalArguments(JSON.parse('{"b":1,"a":"x","B":true,"10":null,"9":-0}'))).toBe(
      '{"10":null,"9":0,"B":true,"a":"x","b":1}',
    );
  });

  it('keeps an own __proto__ key as a member', () => {
    const parsed: unknown = JSON.parse('{"__proto__":"x","z":1}');
    expect(canonicalArguments(parsed)).toBe('{"__proto__":"x","z":1}');
  });

  it('gives none for what RFC 8785 refuses to write, as canonicalize refuses it', () => {
    for (const odd of [
      { text: 'a\ud800' },
      { n: NaN },
      { n: Infinity },
      { deep: [{ k: 'x\udc00' }] },
    ]) {
      expect(() => canonicalize(odd)).toThrow();
      expect(canonicalArguments(odd)).toBeUndefined();
      expect(argumentsDigest(odd)).toBeUndefined();
    }
  });

  it('leaves objects that are not plain to canonicalize (a toJSON on the prototype, a box)', () => {
    const date = new Date(0);
    const withToJson = Object.create({ toJSON: () => 'mine' }) as object;
    for (const odd of [date, withToJson, { when: date }, Object(1) as object]) {
      expect(canonicalArguments(odd)).toBe(canonicalize(odd));
    }
    expect(canonicalArguments(date)).toBe('"1970-01-01T00:00:00.000Z"');
  });

  it('reads no arguments as an empty object', () => {
    expect(canonicalArguments(undefined)).toBe('{}');
    expect(argumentsDigest(undefined)).toBe(sha256Hex('{}'));
  });

  it('digests the canonical text, so key order does not change the digest', () => {
    expect(argumentsDigest({ b: 2, a: 'x' })).toBe(sha256Hex('{"a":"x","b":2}'));
    expect(argumentsDigest({ a: 'x', b: 2 })).toBe(argumentsDigest({ b: 2, a: 'x' }));
  });
});
