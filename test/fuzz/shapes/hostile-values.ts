import fc from 'fast-check';
import { REAL_METHODS, requestId } from '../../support/reliability-fuzz.js';
import { LOW_LIMITS, around, nest, wide, type ShapeLimits } from './shape-model.js';
import { HOSTILE_TOOL_NAMES } from './hostile-tools.js';

/*
 * Hostile values: argument objects with huge key counts, nesting far past any
 * sane depth (built iteratively, up to 100 000 levels), long strings and long
 * arrays, each drawn around and past the argument bounds; and random JSON-RPC
 * envelopes around them.
 */

const smallLeaf = fc.oneof(
  fc.constantFrom<unknown>(1, 0, -1, 'v', '', null, true, false, 1.5),
  fc.string({ maxLength: 8 }),
);

/**
 * A hostile value (a candidate for one argument, or for a whole arguments
 * object): wide, deep, long, or a mix, sized around `limits`. `hugeDepth`
 * allows the rare 100 000-level tower.
 */
export function hostileValue(limits: ShapeLimits, hugeDepth = true): fc.Arbitrary<unknown> {
  const depth = fc.oneof(
    { weight: 6, arbitrary: around(limits.maxArgumentDepth, limits.maxArgumentDepth * 4) },
    {
      weight: hugeDepth ? 1 : 0,
      arbitrary: fc.integer({ min: limits.maxArgumentDepth, max: 100_000 }),
    },
    { weight: hugeDepth ? 1 : 0, arbitrary: fc.constant(100_000) },
  );
  return fc.oneof(
    // Wide: many keys at one level.
    {
      weight: 3,
      arbitrary: fc
        .tuple(around(limits.maxArgumentKeys), smallLeaf)
        .map(([count, leaf]) => wide(count, leaf)),
    },
    // Deep: a tower of objects, arrays or both.
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          depth,
          fc.constantFrom('object', 'array', 'mixed') as fc.Arbitrary<'object'>,
          smallLeaf,
        )
        .map(([levels, kind, leaf]) => nest(levels, kind, leaf)),
    },
    // Long: one array around the array bound (its items count as keys too).
    {
      weight: 3,
      arbitrary: fc
        .tuple(around(limits.maxArgumentArrayLength), smallLeaf)
        .map(([length, leaf]) => Array.from({ length }, () => leaf)),
    },
    // A long string (no bound of its own: it must simply be carried).
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 1_000, max: 200_000 }),
          fc.constantFrom('x', 'é', '"', '\\', '\u2028'),
        )
        .map(([length, unit]) => unit.repeat(length)),
    },
    // Several wide objects side by side: each within the bound, their sum maybe not.
    {
      weight: 1,
      arbitrary: fc
        .array(fc.integer({ min: 0, max: Math.ceil(limits.maxArgumentKeys / 2) }), {
          minLength: 1,
          maxLength: 4,
        })
        .map((counts) => counts.map((count) => wide(count))),
    },
    // Arrays of arrays: the key count grows as the product.
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 1, max: limits.maxArgumentArrayLength }),
          fc.integer({ min: 1, max: Math.ceil(limits.maxArgumentKeys / 10) }),
        )
        .map(([outer, inner]) => Array.from({ length: outer }, () => Array(inner).fill(0))),
    },
    // Something small, so plain arguments sit beside the hostile ones.
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

/**
 * An arguments object holding hostile values under a few keys (and maybe a
 * `text`, so `echo` and the DTO tool can accept what is within bounds).
 */
export function hostileArguments(
  limits: ShapeLimits,
  hugeDepth = true,
): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      fc.option(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom<unknown>(1, null)), {
        nil: undefined,
      }),
      fc.array(
        fc.tuple(fc.constantFrom('a', 'b', 'c', 'text', 'list'), hostileValue(limits, hugeDepth)),
        {
          minLength: 0,
          maxLength: 3,
        },
      ),
      fc.boolean(),
    )
    .map(([text, entries, whole]) => {
      // Sometimes one hostile value is the whole arguments object (when it is an object).
      const [first] = entries;
      if (
        whole &&
        first &&
        typeof first[1] === 'object' &&
        first[1] !== null &&
        !Array.isArray(first[1])
      ) {
        return first[1] as Record<string, unknown>;
      }
      const args: Record<string, unknown> = {};
      if (text !== undefined) args.text = text;
      for (const [key, value] of entries) args[key] = value;
      return args;
    });
}

/** A tools/call of a hostile tool name with hostile arguments (the envelope well formed). */
export function hostileCall(limits: ShapeLimits, hugeDepth = true) {
  return fc.record({
    id: requestId,
    name: fc.constantFrom(...HOSTILE_TOOL_NAMES),
    arguments: hostileArguments(limits, hugeDepth),
  });
}

/** A tools/call as sent. */
export function callMessage(call: { id: unknown; name: string; arguments: unknown }) {
  return {
    jsonrpc: '2.0',
    id: call.id,
    method: 'tools/call',
    params: { name: call.name, arguments: call.arguments },
  } as Record<string, any>;
}

/**
 * JSON text of `value`, built iteratively: JSON.stringify recurses, and a
 * 100 000-level value overflows its stack. (Undefined object members are
 * left out and undefined items become null, as JSON.stringify does.)
 */
export function serialize(value: unknown): string {
  const out: string[] = [];
  const stack: { close: string; items: [string | undefined, unknown][]; at: number }[] = [];
  const emit = (item: unknown) => {
    if (item === null || typeof item !== 'object') {
      out.push(JSON.stringify(item) ?? 'null');
    } else if (Array.isArray(item)) {
      out.push('[');
      stack.push({ close: ']', items: item.map((child) => [undefined, child]), at: 0 });
    } else {
      out.push('{');
      const entries = Object.entries(item).filter(([, child]) => child !== undefined);
      stack.push({ close: '}', items: entries, at: 0 });
    }
  };
  emit(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.at === top.items.length) {
      out.push(top.close);
      stack.pop();
      continue;
    }
    const [key, child] = top.items[top.at];
    if (top.at++ > 0) out.push(',');
    if (key !== undefined) out.push(JSON.stringify(key), ':');
    emit(child);
  }
  return out.join('');
}

/** A mutated envelope around a hostile payload: any field, any method, a hostile id. */
export const hostileEnvelope: fc.Arbitrary<unknown> = fc.oneof(
  // Hostile params to any real method (and a few that exist nowhere).
  fc
    .tuple(
      requestId,
      fc.constantFrom<string>(
        ...REAL_METHODS.filter((m) => m !== 'initialize'),
        'no/such',
        'notifications/progress',
      ),
      hostileValue(LOW_LIMITS),
    )
    .map(([id, method, params]) => ({ jsonrpc: '2.0', id, method, params })),
  // A tools/call whose name, _meta or params hold the hostile value.
  fc
    .tuple(
      requestId,
      fc.constantFrom('name', '_meta', 'arguments-as-array'),
      hostileValue(LOW_LIMITS),
    )
    .map(([id, where, value]) => {
      const params: Record<string, unknown> = { name: 'any_object', arguments: {} };
      if (where === 'name') params.name = value;
      else if (where === '_meta') params._meta = value;
      else params.arguments = [value];
      return { jsonrpc: '2.0', id, method: 'tools/call', params };
    }),
  // A hostile id (a long string is a usable id; a wide object or a deep array is not).
  fc
    .tuple(
      fc.oneof(
        fc.integer({ min: 1_000, max: 100_000 }).map((n) => 'i'.repeat(n)),
        hostileValue(LOW_LIMITS, false),
      ),
      fc.constantFrom('ping', 'tools/list', 'tools/call'),
    )
    .map(([id, method]) => ({
      jsonrpc: '2.0',
      id,
      method,
      ...(method === 'tools/call' ? { params: { name: 'echo', arguments: { text: 't' } } } : {}),
    })),
  // A hostile call with one envelope field broken, or a notification or response carrying it.
  fc
    .tuple(
      hostileCall(LOW_LIMITS),
      fc.constantFrom('jsonrpc', 'no-id', 'method', 'notification', 'response', 'none'),
    )
    .map(([call, broken]) => {
      const m = callMessage(call);
      if (broken === 'jsonrpc') m.jsonrpc = '1.0';
      if (broken === 'no-id' || broken === 'notification') delete m.id;
      if (broken === 'method') m.method = call.arguments;
      if (broken === 'notification') m.method = 'notifications/cancelled';
      if (broken === 'response') {
        delete m.method;
        m.result = call.arguments;
      }
      return m;
    }),
  // The whole message a hostile value (an object, an array: batches are refused here).
  hostileValue(LOW_LIMITS),
);
