import fc from 'fast-check';
import { argumentShapeProblem } from './argument-shape.js';
import { decodeJsonMessage } from './json-message.decoder.js';
import type { MessageShapeBounds } from './message-shape.scanner.js';
import { McpOversizedValue } from './oversized-value.js';

const bounds: MessageShapeBounds = {
  maxArgumentKeys: 20,
  maxArgumentDepth: 4,
  maxArgumentArrayLength: 8,
  maxBatchItems: 5,
};

const call = (args: string, extra = '') =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${args}${extra}}}`;

function decoded(text: string): Record<string, any> {
  const result = decodeJsonMessage(text, bounds);
  if (result.kind !== 'message') throw new Error(`not decoded: ${JSON.stringify(result)}`);
  return result.message as Record<string, any>;
}

/** Any JSON value, its arrays and objects at most this long and this wide. */
const jsonValue = (maxLength: number, maxKeys: number) =>
  fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null)),
      fc.array(tie('value'), { maxLength }),
      fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys }),
    ),
  })).value;

const wide = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;
const deep = (n: number) => `${'{"a":'.repeat(n - 1)}{}${'}'.repeat(n - 1)}`;
const long = (n: number) => `[${Array.from({ length: n }, () => 0).join(',')}]`;

describe('decodeJsonMessage', () => {
  it('decodes a body within every bound exactly as JSON.parse does', () => {
    const text = call(
      '{"s":"a \\" } ] [ { , : \\\\","u":"\\u00e9é","n":[1,-2.5e3,true,null,{"x":[]}]}',
      ',"_meta":{"progressToken":"p"}',
    );
    expect(decoded(text)).toEqual(JSON.parse(text));
  });

  it.each([
    ['keys', wide(21), 'the arguments hold more than 20 keys and items'],
    ['depth', deep(5), 'arguments nest deeper than 4 levels'],
    ['array length', `{"list":${long(9)}}`, 'an array in the arguments has more than 8 items'],
  ])('cuts out arguments over the %s bound and names it', (_, args, problem) => {
    const message = decoded(call(args));
    expect(message.params.arguments).toBeInstanceOf(McpOversizedValue);
    expect(message.params.arguments.problem).toBe(problem);
    expect(argumentShapeProblem(message.params.arguments, bounds)).toBe(problem);
    expect(message).toMatchObject({ id: 1, method: 'tools/call', params: { name: 't' } });
  });

  it('lets arguments at each bound through, to be judged exactly after parsing', () => {
    for (const args of [wide(20), deep(4), `{"list":${long(8)}}`]) {
      expect(decoded(call(args)).params.arguments).toEqual(JSON.parse(args));
    }
  });

  it('cuts an oversized _meta beside sound arguments, and the members after it survive', () => {
    const message = decoded(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":${wide(30)},"arguments":{"a":1},"name":"t"}}`,
    );
    expect(message.params._meta).toBeInstanceOf(McpOversizedValue);
    expect(message.params).toMatchObject({ arguments: { a: 1 }, name: 't' });
  });

  it('finds the member by its unescaped key, and never touches a prototype', () => {
    const escaped = decoded(
      `{"jsonrpc":"2.0","id":3,"method":"x","params":{"argu\\u006dents":${wide(25)}}}`,
    );
    expect(escaped.params.arguments).toBeInstanceOf(McpOversizedValue);
    const proto = decoded(
      `{"jsonrpc":"2.0","id":4,"method":"x","params":{"__proto__":${deep(9)}}}`,
    );
    expect(Object.getPrototypeOf(proto.params)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto.params, '__proto__')?.value).toBeInstanceOf(
      McpOversizedValue,
    );
  });

  it('cuts members in the batch item they belong to', () => {
    const items = [call('{"a":1}'), call(wide(40)), call(deep(7))];
    const batch = decodeJsonMessage(`[${items.join(',')}]`, bounds);
    expect(batch.kind).toBe('message');
    const [first, second, third] = (batch as { message: Record<string, any>[] }).message;
    expect(first.params.arguments).toEqual({ a: 1 });
    expect(second.params.arguments.problem).toMatch(/keys and items/);
    expect(third.params.arguments.problem).toMatch(/nest deeper/);
  });

  it('refuses a batch of more messages than one connection may have in flight', () => {
    const batch = `[${Array.from({ length: 6 }, () => '{"jsonrpc":"2.0","id":1,"method":"ping"}')}]`;
    expect(decodeJsonMessage(batch, bounds)).toEqual({
      kind: 'refused',
      reason: 'a batch holds more than 5 messages',
    });
  });

  it('refuses a body whose values add up past four times maxArgumentKeys, even when each member is within its bound', () => {
    const members = Array.from({ length: 5 }, (_, i) => `"m${i}":${wide(18)}`).join(',');
    const result = decodeJsonMessage(
      `{"jsonrpc":"2.0","id":5,"method":"x","params":{${members}}}`,
      bounds,
    );
    expect(result).toEqual({
      kind: 'refused',
      reason: 'the body holds more than 80 keys and items',
    });
  });

  it('refuses wide or deep shapes outside params (a response, the envelope itself)', () => {
    expect(
      decodeJsonMessage(`{"jsonrpc":"2.0","id":6,"result":${wide(90)}}`, bounds),
    ).toMatchObject({
      kind: 'refused',
    });
    expect(decodeJsonMessage(`{"jsonrpc":"2.0","id":6,"result":${deep(12)}}`, bounds)).toEqual({
      kind: 'refused',
      reason: 'the body nests deeper than 7 levels',
    });
  });

  it('leaves malformed text to JSON.parse: a parse error, never a thrown exception', () => {
    for (const text of ['{"a":', '{"a":"unterminated', '}}}]]]', call(`${wide(30)}]]`), '']) {
      expect(decodeJsonMessage(text, bounds).kind).not.toBe('message');
    }
  });

  it('decodes each body alike whatever was decoded before it (the scans share their arrays)', () => {
    const bodies = [
      `[${[call('{"a":[1,[2]]}'), call(wide(40)), call(deep(7))].join(',')}]`,
      `{"jsonrpc":"2.0","id":6,"result":${deep(12)}}`,
      call(`{"list":${long(9)}}`),
      '1,"a"',
      call('[[[1]],{"b":[2]}]'),
      call('{"s":"x"}', ',"_meta":{"progressToken":"p"}'),
    ];
    const inOrder = bodies.map((text) => decodeJsonMessage(text, bounds));
    const reversed = [...bodies].reverse().map((text) => decodeJsonMessage(text, bounds));
    expect(reversed.reverse()).toEqual(inOrder);
    expect(decoded(bodies[4]!)).toEqual(JSON.parse(bodies[4]!));
  });

  it('never flags arguments the exact check lets through, and decodes the rest unchanged', () => {
    fc.assert(
      fc.property(jsonValue(10, 8), (args) => {
        const text = call(JSON.stringify(args));
        const result = decodeJsonMessage(text, bounds);
        if (result.kind === 'refused') return; // the whole body past its own, looser bound
        expect(result.kind).toBe('message');
        const got = (result as { message: Record<string, any> }).message.params.arguments;
        if (got instanceof McpOversizedValue) {
          expect(argumentShapeProblem(args, bounds)).toBeDefined();
        } else {
          expect(got).toEqual(args);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

/*
 * A server's count bounds are in the thousands, so most bodies are shorter than any of them and
 * only their brackets are counted before parsing; those bodies must come out as a full scan
 * would leave them.
 */
describe('decodeJsonMessage, a body shorter than every count bound', () => {
  const loose: MessageShapeBounds = {
    maxArgumentKeys: 10_000,
    maxArgumentDepth: 4,
    maxArgumentArrayLength: 10_000,
    maxBatchItems: 256,
  };
  it('still cuts out arguments nested past the depth bound', () => {
    const result = decodeJsonMessage(call(deep(5)), loose);
    expect(result.kind).toBe('message');
    const args = (result as { message: Record<string, any> }).message.params.arguments;
    expect(args).toBeInstanceOf(McpOversizedValue);
    expect(args.problem).toBe('arguments nest deeper than 4 levels');
  });

  it('decodes as JSON.parse does a body whose brackets sit inside strings', () => {
    const text = call('{"s":"{{{{[[[[ ]]]]}}}}"}');
    expect(decodeJsonMessage(text, loose)).toEqual({ kind: 'message', message: JSON.parse(text) });
  });

  it('flags arguments exactly when the exact check does', () => {
    fc.assert(
      fc.property(jsonValue(4, 4), (args) => {
        const result = decodeJsonMessage(call(JSON.stringify(args)), loose);
        expect(result.kind).toBe('message');
        const got = (result as { message: Record<string, any> }).message.params.arguments;
        if (argumentShapeProblem(args, loose) === undefined) expect(got).toEqual(args);
        else expect(got).toBeInstanceOf(McpOversizedValue);
      }),
      { numRuns: 2000 },
    );
  });
});
