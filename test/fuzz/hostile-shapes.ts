import { Injectable } from '@nestjs/common';
import { IsOptional, IsString } from 'class-validator';
import fc from 'fast-check';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { McpTool, type McpToolContext } from '../../src/index.js';
import { jsonRpcProblems, leaksIn } from '../support/reliability-support.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { REAL_METHODS, requestId } from '../support/reliability-fuzz.js';

/*
 * Hostile shapes for the fuzz suite: argument objects with huge key counts,
 * nesting far past any sane depth (built iteratively, up to 100 000 levels),
 * long strings and long arrays, each drawn around and past the argument
 * bounds (limits.maxArgumentKeys / maxArgumentDepth / maxArgumentArrayLength);
 * random JSON-RPC envelopes around them; and a reference model of the bounds
 * (what the server must refuse, and with which words), written apart from the
 * server's own check.
 */

/** The argument bounds a fuzz app runs with. */
export interface ShapeLimits {
  maxArgumentKeys: number;
  maxArgumentDepth: number;
  maxArgumentArrayLength: number;
}

/** Lowered bounds, so that crossing them is cheap and most cases sit around them. */
export const LOW_LIMITS: ShapeLimits = {
  maxArgumentKeys: 200,
  maxArgumentDepth: 8,
  maxArgumentArrayLength: 50,
};

/** The defaults (DEFAULT_LIMITS), for the fewer cases drawn around the real bounds. */
export const DEFAULT_SHAPE_LIMITS: ShapeLimits = {
  maxArgumentKeys: 10_000,
  maxArgumentDepth: 32,
  maxArgumentArrayLength: 10_000,
};

/** What a shape measures, as the bounds count it (the arguments object itself is level 1). */
export interface ShapeFigures {
  /** Object keys plus array items, over all levels. */
  keys: number;
  /** The deepest level holding an object or an array. */
  depth: number;
  /** The longest array. */
  longestArray: number;
}

/**
 * Measures `value` iteratively (no recursion: 100 000 levels must not overflow
 * this either). A reference, not the server's code: it walks everything and
 * judges after.
 */
export function figuresOf(value: unknown): ShapeFigures {
  const figures: ShapeFigures = { keys: 0, depth: 0, longestArray: 0 };
  // Two parallel stacks: no tuple per value (a 100 000-level walk stays cheap).
  const values: unknown[] = [value];
  const levels: number[] = [1];
  while (values.length > 0) {
    const item = values.pop();
    const level = levels.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (level > figures.depth) figures.depth = level;
    if (Array.isArray(item)) {
      if (item.length > figures.longestArray) figures.longestArray = item.length;
      figures.keys += item.length;
      for (let at = 0; at < item.length; at++) {
        values.push(item[at]);
        levels.push(level + 1);
      }
    } else {
      for (const child of Object.values(item)) {
        figures.keys++;
        values.push(child);
        levels.push(level + 1);
      }
    }
  }
  return figures;
}

/** The refusals the server may give for `figures` under `limits` (empty: within every bound). */
export function expectedRefusals(figures: ShapeFigures, limits: ShapeLimits): string[] {
  const refusals: string[] = [];
  if (figures.keys > limits.maxArgumentKeys) {
    refusals.push(`the arguments hold more than ${limits.maxArgumentKeys} keys and items`);
  }
  if (figures.depth > limits.maxArgumentDepth) {
    refusals.push(`arguments nest deeper than ${limits.maxArgumentDepth} levels`);
  }
  if (figures.longestArray > limits.maxArgumentArrayLength) {
    refusals.push(`an array in the arguments has more than ${limits.maxArgumentArrayLength} items`);
  }
  return refusals;
}

/** `levels` of nesting around `leaf`, built from the inside out (objects, arrays or both). */
export function nest(levels: number, kind: 'object' | 'array' | 'mixed', leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < levels; level++) {
    const asArray = kind === 'array' || (kind === 'mixed' && level % 2 === 1);
    value = asArray ? [value] : { n: value };
  }
  return value;
}

/** An object of `count` keys `k0…`, each holding `leaf`. */
export function wide(count: number, leaf: unknown = 1): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let key = 0; key < count; key++) object[`k${key}`] = leaf;
  return object;
}

/** A size drawn around `bound`: just under, at, just past, well past, or anywhere below. */
export function around(bound: number, farthest = bound * 3): fc.Arbitrary<number> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: Math.max(0, bound - 3), max: bound + 3 }) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: bound }) },
    { weight: 1, arbitrary: fc.integer({ min: bound, max: Math.max(bound, farthest) }) },
  );
}

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

/** The hostile tools: a DTO tool, a JSON Schema tool that takes anything, and a holder. */
export const hostileRuns = { dto: 0, any: 0 };

export class HostileNoteDto {
  @IsString()
  text!: string;

  @IsOptional()
  @IsString()
  note?: string;
}

@Injectable()
export class HostileTools {
  /** Released by the spec once every message of a case has been dispatched. */
  static gate: Deferred<void> = deferred<void>();

  @McpTool({ name: 'dto_echo', description: 'Echo (DTO arguments)', inputSchema: HostileNoteDto })
  dto({ text }: HostileNoteDto) {
    hostileRuns.dto++;
    return text;
  }

  @McpTool({ name: 'any_object', description: 'Takes any object', inputSchema: { type: 'object' } })
  any() {
    hostileRuns.any++;
    return 'ran';
  }

  @McpTool({
    name: 'hold',
    description: 'Holds until the case releases it',
    inputSchema: { type: 'object' },
  })
  async hold(_args: object, ctx: McpToolContext) {
    await Promise.race([
      HostileTools.gate.promise,
      new Promise((resolve) => ctx.signal.addEventListener('abort', resolve)),
    ]);
    return 'held';
  }
}

/** The tools a hostile call is sent to (the fuzz app's `echo` and `explode` are there too). */
export const HOSTILE_TOOL_NAMES = [
  'dto_echo',
  'any_object',
  'echo',
  'explode',
  'denied_counter',
  'no_such_tool',
] as const;

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

/**
 * What a property cost the event loop, reported and never judged (timing is
 * the bench's business): the longest case end to end (an in-process case runs
 * in microtasks, so it is one stall), the longest draw of the next case, and
 * the monitor's longest delay over the property (1 ms resolution; it needs the
 * loop to turn, as HTTP cases do, and it sees this whole process: the server,
 * and the drawing and checking of the cases beside it).
 */
export class StallMeter {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });
  /** The longest event-loop delay, ms, by property. */
  readonly loop: Record<string, number> = {};
  /** The longest case, ms, by property. */
  readonly longestCase: Record<string, number> = {};
  /** The longest time between two cases (drawing the next one), ms, by property. */
  readonly longestGap: Record<string, number> = {};
  private lastEnd = new Map<string, number>();

  start(): void {
    this.histogram.enable();
  }

  /** Runs one case of `label`, timing it. */
  async measure<T>(label: string, work: () => Promise<T>): Promise<T> {
    const begin = performance.now();
    const last = this.lastEnd.get(label);
    if (last !== undefined) {
      this.longestGap[label] = Math.max(this.longestGap[label] ?? 0, begin - last);
    }
    try {
      return await work();
    } finally {
      const end = performance.now();
      this.longestCase[label] = Math.max(this.longestCase[label] ?? 0, end - begin);
      this.lastEnd.set(label, end);
    }
  }

  /** Closes `label`'s window of the monitor (call after its property). */
  endProperty(label: string): void {
    const max = this.histogram.max / 1e6;
    this.loop[label] = Math.max(this.loop[label] ?? 0, Number.isFinite(max) ? max : 0);
    this.histogram.reset();
  }

  /** One line for the suite's report. */
  report(): string {
    const labels = Object.keys(this.longestCase);
    return labels
      .map(
        (label) =>
          `${label}: longest case ${this.longestCase[label].toFixed(1)} ms, longest draw ` +
          `between cases ${(this.longestGap[label] ?? 0).toFixed(1)} ms, event-loop delay ` +
          `${(this.loop[label] ?? 0).toFixed(1)} ms (this process's: drawing and checking too)`,
      )
      .join('; ');
  }

  stop(): void {
    this.histogram.disable();
  }
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

/** A request of a duplicate-id case: a held call on a shared id, or something with its own id. */
export type DupItem =
  | { kind: 'hold'; id: string | number }
  | { kind: 'ping'; id: string }
  | { kind: 'initialize'; id: string }
  | { kind: 'notification' };

/** Ids the held calls share (1 and "1" are distinct ids). */
export const SHARED_IDS = [1, 2, '1', 'a', 0] as const;

export const dupItem: fc.Arbitrary<DupItem> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...SHARED_IDS).map((id) => ({ kind: 'hold' as const, id })),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'ping' as const, id: '' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'initialize' as const, id: '' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'notification' as const }) },
);

/** One send: a single message or a 2025-03-26 batch of up to 6. */
export interface DupSend {
  batch: boolean;
  items: DupItem[];
}

/**
 * The sends of one case: single messages (never an initialize, which would
 * start the connection afresh) and batches, which may carry an initialize
 * (the server must refuse it there) unless `initializeInBatch` is false.
 */
export function dupSends(initializeInBatch = true): fc.Arbitrary<DupSend[]> {
  const notInitialize = dupItem.filter((item) => item.kind !== 'initialize');
  return fc.array(
    fc.oneof(
      notInitialize.map((item) => ({ batch: false, items: [item] })),
      fc
        .array(initializeInBatch ? dupItem : notInitialize, { minLength: 1, maxLength: 6 })
        .map((items) => ({ batch: true, items })),
    ),
    { minLength: 1, maxLength: 8 },
  );
}

/** Gives the pings and initializes ids of their own (unique over the run). */
let uniqueId = 0;
export function withOwnIds(sends: DupSend[]): DupSend[] {
  return sends.map(({ batch, items }) => ({
    batch,
    items: items.map((item) =>
      item.kind === 'ping' || item.kind === 'initialize'
        ? { ...item, id: `own-${++uniqueId}` }
        : item,
    ),
  }));
}

/** The wire form of a send. */
export function wireOf(send: DupSend): unknown {
  return send.batch ? send.items.map(dupMessage) : dupMessage(send.items[0]);
}

export function dupMessage(item: DupItem): Record<string, any> {
  switch (item.kind) {
    case 'hold':
      return {
        jsonrpc: '2.0',
        id: item.id,
        method: 'tools/call',
        params: { name: 'hold', arguments: {} },
      };
    case 'ping':
      return { jsonrpc: '2.0', id: item.id, method: 'ping' };
    case 'initialize':
      return {
        jsonrpc: '2.0',
        id: item.id,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      };
    case 'notification':
      return { jsonrpc: '2.0', method: 'notifications/initialized' };
  }
}

/**
 * The invariants every message the server sends must hold (expectWellFormed,
 * with the input serialized iteratively: it may be 100 000 levels deep).
 */
export function wellFormed(message: unknown, input: unknown): void {
  expect(jsonRpcProblems(message)).toEqual([]);
  expect(leaksIn(JSON.stringify(message), serialize(input))).toEqual([]);
}

/** A tools/call drawn by hostileCall. */
export type ToolCall = { id: string | number; name: string; arguments: Record<string, unknown> };

/**
 * The reply to a tools/call with hostile arguments, against the reference
 * model: past a bound, the isError "Invalid arguments for tool <name>: …"
 * naming a bound the arguments crossed, whatever the tool (denied, unknown),
 * and no tool runs; within every bound, the tool's own answer. Never -32603.
 */
export function expectToolReply(
  reply: unknown,
  call: ToolCall,
  limits: ShapeLimits,
  before: typeof hostileRuns,
) {
  expect(reply).not.toBeNull();
  expect(jsonRpcProblems(reply)).toEqual([]);
  const r = reply as Record<string, any>;
  expect(r.id).toBe(call.id);
  const figures = figuresOf(call.arguments);
  const refusals = expectedRefusals(figures, limits);
  const what = `${call.name} ${JSON.stringify(figures)}`;
  if (refusals.length > 0) {
    // Past a bound the call is refused before anything else (the seam, the tool lookup) sees
    // it: the same isError result for every tool name, denied or unknown alike.
    expect([what, r.error]).toEqual([what, undefined]);
    const result = r.result as Record<string, any>;
    const text: string = result.content?.[0]?.text ?? '';
    expect([what, result.isError]).toEqual([what, true]);
    const prefix = `Invalid arguments for tool ${call.name}: `;
    expect([what, text.startsWith(prefix)]).toEqual([what, true]);
    expect([what, refusals]).toEqual([what, expect.arrayContaining([text.slice(prefix.length)])]);
    expect(hostileRuns).toEqual(before);
    return;
  }
  if (call.name === 'no_such_tool') {
    // An unknown tool is reported once the seam allowed the call.
    expect([what, r.error?.code]).toEqual([what, -32602]);
    return;
  }
  expect([what, r.error]).toEqual([what, undefined]);
  const result = r.result as Record<string, any>;
  const text: string = result.content?.[0]?.text ?? '';
  if (call.name === 'denied_counter') {
    // Within the bounds, the seam's deny comes before any validation of the arguments.
    expect(result.isError).toBe(true);
    expect(text.startsWith('Invalid arguments')).toBe(false);
    return;
  }
  const args = call.arguments;
  const textOk = typeof args.text === 'string';
  switch (call.name) {
    case 'any_object':
      expect([what, result]).toEqual([what, { content: [{ type: 'text', text: 'ran' }] }]);
      break;
    case 'echo':
      if (textOk) expect([what, text]).toEqual([what, args.text]);
      else
        expect([what, text]).toEqual([
          what,
          expect.stringMatching(/^Invalid arguments for tool echo: /),
        ]);
      break;
    case 'dto_echo': {
      const declared = Object.keys(args).every((key) => key === 'text' || key === 'note');
      const noteOk = args.note === undefined || typeof args.note === 'string';
      if (textOk && declared && noteOk) expect([what, text]).toEqual([what, args.text]);
      else {
        expect([what, result.isError, text]).toEqual([
          what,
          true,
          expect.stringMatching(/^Invalid arguments for tool dto_echo: /),
        ]);
      }
      break;
    }
    default:
      // explode: its failure is an isError result that says only that it failed.
      expect([what, result.isError]).toEqual([what, true]);
  }
}

/**
 * The reply a request other than tools/call must get for `input`, when its
 * params (an object, to a method the server serves) cross a shape bound:
 * -32602 naming a bound they crossed. Undefined when that does not apply.
 */
export function expectedParamsRefusal(input: unknown, limits: ShapeLimits): string[] | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const m = input as Record<string, unknown>;
  const served = (REAL_METHODS as readonly string[]).includes(m.method as string);
  if (m.jsonrpc !== '2.0' || !served || m.method === 'tools/call' || m.method === 'initialize') {
    return undefined;
  }
  const id = m.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))))
    return undefined;
  const params = m.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const refusals = expectedRefusals(figuresOf(params), limits);
  return refusals.length > 0 ? refusals : undefined;
}
