import fc from 'fast-check';
import { isObject, isUsableId } from './reliability-support.js';

/*
 * Arbitraries for the fuzz suite: valid requests for every real method,
 * near-miss envelopes (a valid request with one field mutated), notifications
 * and responses; and the reference classification of a message (what
 * JSON-RPC 2.0 and docs/http.md say the server must do with it).
 */

/** Every method the server serves. */
export const REAL_METHODS = [
  'initialize',
  'ping',
  'logging/setLevel',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
] as const;

/** The fuzz app's names, plus a few that exist nowhere. */
export const TOOL_NAMES = [
  'guarded_counter',
  'denied_counter',
  'echo',
  'explode',
  'authz_throws',
  'no_such_tool',
];
export const URIS = [
  'fuzz://doc',
  'fuzz://broken',
  'fuzz://item/1',
  'fuzz://secret/plans',
  'nope://x',
];
export const PROMPT_NAMES = ['greet', 'broken_prompt', 'asked_prompt', 'no_such_prompt'];
export const VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '1999-01-01'];
const NOTIFICATIONS = [
  'notifications/initialized',
  'notifications/progress',
  'notifications/roots/list_changed',
  'notifications/cancelled',
];

type Msg = Record<string, unknown>;

const DELETE = Symbol('delete');
const str = fc.string({ maxLength: 12 });
const smallJson = fc.jsonValue({ maxDepth: 2 });
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const toolName = fc.oneof(pick(TOOL_NAMES), str);
const listParams = fc.oneof(fc.constant(undefined), fc.record({ cursor: str }));
const uriParams = fc.record({ uri: fc.oneof(pick(URIS), str) });

/** Plausible params for each real method (valid most of the time, not always). */
const PARAMS: Record<(typeof REAL_METHODS)[number], fc.Arbitrary<unknown>> = {
  initialize: fc.record({
    protocolVersion: fc.oneof(pick(VERSIONS), str),
    capabilities: fc.oneof(fc.constant({}), fc.constant({ elicitation: {} }), smallJson),
    clientInfo: fc.record({ name: str, version: str }),
  }),
  ping: fc.constant(undefined),
  'logging/setLevel': fc.record({
    level: fc.oneof(pick(['debug', 'info', 'warning', 'emergency']), str),
  }),
  'tools/list': listParams,
  'tools/call': fc.record(
    {
      name: toolName,
      arguments: fc.oneof(
        fc.constant({}),
        fc.record({ text: str }),
        fc.dictionary(str, smallJson, { maxKeys: 3 }),
      ),
      _meta: fc.record({ progressToken: fc.oneof(str, fc.integer()) }),
    },
    { requiredKeys: ['name'] },
  ),
  'resources/list': listParams,
  'resources/templates/list': listParams,
  'resources/read': uriParams,
  'resources/subscribe': uriParams,
  'resources/unsubscribe': uriParams,
  'prompts/list': listParams,
  'prompts/get': fc.record(
    {
      name: fc.oneof(pick(PROMPT_NAMES), str),
      arguments: fc.dictionary(str, fc.oneof(str, smallJson), { maxKeys: 3 }),
    },
    { requiredKeys: ['name'] },
  ),
  'completion/complete': fc.record({
    ref: fc.oneof(
      fc.record({ type: fc.constant('ref/prompt'), name: pick(PROMPT_NAMES) }),
      fc.record({ type: fc.constant('ref/resource'), uri: pick(['fuzz://item/{id}', 'n://{x}']) }),
      fc.record({ type: fc.constant('ref/tool'), name: toolName }),
      smallJson,
    ),
    argument: fc.record({ name: fc.oneof(pick(['who', 'id', 'text']), str), value: str }),
  }),
};

export const requestId = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }));

/** A valid request (envelope) to a real method with plausible params. */
export function validRequest(
  methods: readonly (typeof REAL_METHODS)[number][] = REAL_METHODS,
  id: fc.Arbitrary<string | number> = requestId,
): fc.Arbitrary<Msg> {
  return pick(methods).chain((method) =>
    fc.tuple(id, PARAMS[method]).map(([requestId, params]) => {
      const message: Msg = { jsonrpc: '2.0', id: requestId, method };
      if (params !== undefined) message.params = params;
      return message;
    }),
  );
}

/** A `tools/call` of `name` with an object of arguments (what reaches the tool seam). */
export function toolCall(name: string): fc.Arbitrary<Msg> {
  return fc.tuple(requestId, fc.dictionary(str, smallJson, { maxKeys: 2 })).map(([id, args]) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, arguments: args },
  }));
}

/** One field of an envelope replaced (or deleted). */
const mutation = fc.oneof(
  fc.record({
    key: fc.constant('jsonrpc'),
    value: fc.constantFrom<unknown>('1.0', '2', 2, null, DELETE),
  }),
  fc.record({
    key: fc.constant('id'),
    value: fc.oneof(
      fc.constantFrom<unknown>(null, true, false, {}, [], [1], { id: 1 }, DELETE),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ maxLength: 300 }),
    ),
  }),
  fc.record({
    key: fc.constant('method'),
    value: fc.oneof(
      fc.constantFrom<unknown>(1, null, {}, [], '', 'TOOLS/LIST', 'tools/call ', 'rpc.x', DELETE),
      str,
    ),
  }),
  fc.record({
    key: fc.constant('params'),
    value: fc.constantFrom<unknown>([], [1, 2], 'params', null, 42, true, DELETE),
  }),
  fc.record({ key: fc.constantFrom('result', 'error'), value: smallJson }),
);

/** A valid request with exactly one field mutated. */
export const nearMiss: fc.Arbitrary<Msg> = fc
  .tuple(validRequest(), mutation)
  .map(([message, { key, value }]) => {
    const mutated: Msg = { ...message };
    if (value === DELETE) delete mutated[key];
    else mutated[key] = value;
    return mutated;
  });

export const notification: fc.Arbitrary<Msg> = fc
  .tuple(
    fc.oneof(pick(NOTIFICATIONS), str),
    fc.oneof(
      fc.constant(undefined),
      fc.record({ requestId: requestId, reason: str }),
      fc.record({ progressToken: requestId, progress: fc.integer() }),
      smallJson,
    ),
  )
  .map(([method, params]) =>
    params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params },
  );

/** What a client sends as an answer to a server request: mostly to ids nobody issued. */
export const response: fc.Arbitrary<Msg> = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: requestId, result: smallJson }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.oneof(requestId, fc.constant(null)),
    error: fc.record({ code: fc.integer(), message: str }),
  }),
);

/** The mix a misbehaving client sends. */
export const anyMessage: fc.Arbitrary<Msg> = fc.oneof(
  { weight: 4, arbitrary: validRequest() },
  { weight: 3, arbitrary: nearMiss },
  { weight: 1, arbitrary: notification },
  { weight: 1, arbitrary: response },
);

/** What the server must do with one (non-batch) message. */
export type Expected =
  | { kind: 'request'; id: string | number; method: string }
  | { kind: 'silent' }
  | { kind: 'invalid'; id: string | number | null };

/**
 * The reference classification (JSON-RPC 2.0 + docs/http.md): a request with a
 * usable id gets one response with that id; a notification or a response gets
 * nothing; anything else is -32600, with the id when one can be read, else null.
 */
export function expectedFor(message: unknown): Expected {
  const readableId = (m: unknown) => (isObject(m) && isUsableId(m.id) ? m.id : null);
  if (!isObject(message) || message.jsonrpc !== '2.0') {
    return { kind: 'invalid', id: readableId(message) };
  }
  if (typeof message.method === 'string') {
    if (!('id' in message)) return { kind: 'silent' };
    if (!isUsableId(message.id)) return { kind: 'invalid', id: null };
    return { kind: 'request', id: message.id, method: message.method };
  }
  const isResponse = 'result' in message || 'error' in message;
  if (isResponse && (isUsableId(message.id) || (message.id === null && 'error' in message))) {
    return { kind: 'silent' };
  }
  return { kind: 'invalid', id: readableId(message) };
}

/** A stable key for an id, so 1 and "1" stay distinct in multiset comparisons. */
export function idKey(id: unknown): string {
  return JSON.stringify(id) ?? 'undefined';
}
