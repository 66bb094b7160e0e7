// Event-loop delay under a hostile body: one POST at a time, each body as close to the server's
// limits.maxBodyBytes (4 MiB) as its shape allows, built to cost the server as much as a body of
// that size can (hundreds of thousands of keys to a DTO tool and to a JSON Schema tool, nesting
// hundreds of thousands of levels deep, one huge array, one huge string, a huge `_meta`, a
// 2025-03-26 batch of pings, refused whole past maxInFlightPerConnection). The server's own event
// loop is measured (the preloaded loop-probe.mjs, read over a signal), so the figure is how long
// the server could answer nobody else, not the driver's round trip. Both figures are reported:
// the longest delay in wall time (monitorEventLoopDelay), which is what the target bounds, and
// the longest time the loop was busy (CPU time between two ticks of a 1 ms timer). Wall time also
// counts what the OS gave to other processes, so a bare node:http row takes the same bodies under
// the same load: where a server's wall delay is over the target, its busy time is judged instead
// only if its wall excess (wall minus busy) is no more than the bare row's, that is, the
// machine's (bench/lib/targets.mjs). Each answer of a Warden row is checked: over-bound arguments
// must be an isError result naming the bound, never a -32603.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe } from '../lib/mcp.mjs';
import { RawHttpConnection, messageOf } from '../lib/raw-http.mjs';

/** limits.maxBodyBytes of the bench servers (the default). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** The bound: no body up to maxBodyBytes keeps the event loop busy longer than this. */
export const LOOP_TARGET_MS = 50;

/**
 * `head` + as many `unit(i)` as fit under maxBodyBytes + `tail` (units joined by `separator`):
 * the count is computed from the units' sizes, then checked, so every body is just under 4 MiB.
 */
function fill(head, unit, tail, separator = ',') {
  const room = MAX_BODY_BYTES - Buffer.byteLength(head) - Buffer.byteLength(tail) - 16;
  const parts = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const part = unit(i);
    const cost = Buffer.byteLength(part) + (i ? separator.length : 0);
    if (size + cost > room) break;
    parts.push(part);
    size += cost;
  }
  const body = head + parts.join(separator) + tail;
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) throw new Error('hostile body over maxBodyBytes');
  return { body, count: parts.length };
}

/** The start of a tools/call whose params begin with `params` (the body's tail closes it). */
const envelope = (params) => `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":${params}`;

/** An isError result that names the argument bound `tool` crossed. */
const refusedArguments = (tool, bound) => (message) => {
  const text = message?.result?.content?.[0]?.text ?? '';
  return message?.result?.isError === true &&
    text.startsWith(`Invalid arguments for tool ${tool}: `) &&
    text.includes(bound)
    ? null
    : `want an isError "Invalid arguments for tool ${tool}: …${bound}…", got ${describe(message)}`;
};

/** Wide arguments: `{ "text": "t", "k0": 1, "k1": 1, … }`. */
function keys(tool) {
  const { body, count } = fill(
    envelope(`{"name":"${tool}","arguments":{"text":"t",`),
    (i) => `"k${i}":1`,
    '}}}',
  );
  return { body, count, check: refusedArguments(tool, 'keys and items') };
}

/** The hostile bodies, in table order (the metrics' keys and labels). */
export const HOSTILE_BODIES = [
  { key: 'keysDto', label: 'keys → DTO tool' },
  { key: 'keysSchema', label: 'keys → JSON Schema tool' },
  { key: 'deepObject', label: 'nested objects' },
  { key: 'deepArray', label: 'nested arrays' },
  { key: 'longArray', label: 'one long array' },
  { key: 'longString', label: 'one long string' },
  { key: 'wideMeta', label: 'keys in _meta' },
  { key: 'batch', label: 'batch of pings (2025-03-26)' },
];

/**
 * The hostile bodies, built once. `count` is the keys, levels or items each carries; `session`
 * names the protocol version of the session it is sent on.
 */
export function hostileBodies() {
  const deepObject = (() => {
    const head = envelope(`{"name":"echo","arguments":{"text":"t","a":`);
    const levels = Math.floor((MAX_BODY_BYTES - head.length - 32) / 6);
    return {
      body: `${head}${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}}}}`,
      count: levels,
      check: refusedArguments('echo', 'nest deeper than'),
    };
  })();
  const deepArray = (() => {
    const head = envelope(`{"name":"echo","arguments":{"text":"t","a":`);
    const levels = Math.floor((MAX_BODY_BYTES - head.length - 32) / 2);
    return {
      body: `${head}${'['.repeat(levels)}${']'.repeat(levels)}}}}`,
      count: levels,
      check: refusedArguments('echo', 'nest deeper than'),
    };
  })();
  const longArray = fill(
    envelope(`{"name":"echo","arguments":{"text":"t","list":[`),
    () => '0',
    ']}}}',
  );
  const longString = (() => {
    const head = envelope(`{"name":"echo","arguments":{"text":"`);
    const length = MAX_BODY_BYTES - head.length - 32;
    return {
      body: `${head}${'x'.repeat(length)}"}}}`,
      count: length,
      check: (message) =>
        message?.result?.isError !== true && message?.result?.content?.[0]?.text?.length === length
          ? null
          : `want the ${length}-character echo, got ${describe(message)}`,
    };
  })();
  const wideMeta = fill(
    envelope(`{"name":"echo","arguments":{"text":"t"},"_meta":{`),
    (i) => `"m${i}":1`,
    '}}}',
  );
  const batch = fill('[', (i) => `{"jsonrpc":"2.0","id":${i},"method":"ping"}`, ']');
  /** Any well-formed answer (these shapes have no bound of their own to name). */
  const answered = (message) =>
    message && (message.result !== undefined || message.error !== undefined)
      ? null
      : `want a JSON-RPC response, got ${describe(message)}`;
  const built = {
    keysDto: keys('echo_dto'),
    keysSchema: keys('echo'),
    deepObject,
    deepArray,
    longArray: { ...longArray, check: refusedArguments('echo', 'items') },
    longString,
    wideMeta: { ...wideMeta, check: answered },
    batch: {
      ...batch,
      session: '2025-03-26',
      // More messages than one connection may have in flight: refused whole, unparsed.
      status: 400,
      check: (message) =>
        message?.error?.code === -32600 &&
        /a batch holds more than \d+ messages/.test(message.error.message)
          ? null
          : `want -32600 "…a batch holds more than N messages", got ${describe(message)}`,
    },
  };
  return HOSTILE_BODIES.map((kind) => ({ ...kind, ...built[kind.key] }));
}

/** initialize on `connection` in `version`; the headers the session's requests carry. */
async function openSession(connection, version) {
  const init = await connection.post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    }),
  );
  const session = init.headers['mcp-session-id'];
  if (init.status !== 200 || !session)
    throw new Error(`initialize: HTTP ${init.status} ${init.body}`);
  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': version };
  const ack = await connection.post(
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    headers,
  );
  if (ack.status !== 202) throw new Error(`notifications/initialized got HTTP ${ack.status}`);
  return headers;
}

let built;

export const hostileBodyHttp = {
  id: 'hostile-body-http',
  transport: 'http',
  // The bare node:http row reads and JSON.parses the same bodies under the same load: its wall
  // delay beyond its busy time is what the machine adds (bench/lib/targets.mjs).
  servers: ['bare-http', 'warden-http', 'warden-express-http', 'warden-fastify-http'],
  baselines: [],
  tables: [
    {
      title: `Event-loop busy time under a hostile body (≤ ${MAX_BODY_BYTES / 1024 / 1024} MiB, one at a time): the server's longest busy stall (CPU between two ticks), ms`,
      metrics: HOSTILE_BODIES.map(({ key, label }) => ({ key, label, unit: 'ms', ratio: false })),
    },
    {
      title: `Event-loop delay under a hostile body (≤ ${MAX_BODY_BYTES / 1024 / 1024} MiB, one at a time): the server's longest wall-clock delay (monitorEventLoopDelay), ms`,
      metrics: HOSTILE_BODIES.map(({ key, label }) => ({
        key: `${key}Delay`,
        label,
        unit: 'ms',
        ratio: false,
      })),
    },
  ],
  async run(server, sizes) {
    const bodies = (built ??= hostileBodies());
    const result = {};
    const connection = await RawHttpConnection.open(server.url);
    try {
      /** @type {Record<string, Record<string, string>>} */
      const sessions = {};
      const headersFor = async (version) =>
        (sessions[version] ??= await openSession(connection, version));
      await server.loopDelay(); // starts the server's monitor
      for (const body of bodies) {
        const headers = await headersFor(body.session ?? '2025-11-25');
        let worst = 0;
        let busiest = 0;
        let slowest = 0;
        let parse = Infinity;
        for (let rep = 0; rep < sizes.hostile.reps; rep++) {
          // The floor no server code can go under while it decodes the body whole: JSON.parse
          // alone, here in the driver (same machine, same Node).
          const parsing = performance.now();
          JSON.parse(body.body);
          parse = Math.min(parse, performance.now() - parsing);
          await server.loopDelay(); // a fresh window
          // The monitor records a stall when its next tick comes, measured from its last one:
          // let it tick after the reset, so the stall is measured from a tick before it.
          await sleep(20);
          const begin = performance.now();
          const response = await connection.post(body.body, headers);
          slowest = Math.max(slowest, performance.now() - begin);
          // The bare server has no bounds to name: it answers whatever it parsed.
          if (server.role !== 'bare') {
            const message = response.status === (body.status ?? 200) ? messageOf(response) : null;
            const problem = body.check(message);
            if (problem) throw new Error(`${body.label}: HTTP ${response.status}: ${problem}`);
          }
          const { max, busy } = await server.loopDelay();
          worst = Math.max(worst, max);
          busiest = Math.max(busiest, busy);
        }
        result[body.key] = busiest;
        result[`${body.key}Delay`] = worst;
        result[`${body.key}Wall`] = slowest;
        result[`${body.key}Parse`] = parse;
      }
    } finally {
      connection.close();
    }
    return result;
  },
};
