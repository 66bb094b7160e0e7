// tools/call throughput with 32 calls in flight: over HTTP on 32 raw keep-alive connections
// (one request in flight on each) sharing one session, over stdio pipelined on the one pipe.
import { callTool, openSession } from '../lib/mcp-http.mjs';
import { drive, driveMeasured } from '../lib/measure.mjs';
import { RawHttpConnection } from '../lib/raw-http.mjs';

const IN_FLIGHT = 32;
const metrics = [
  { key: 'rate', label: 'calls/s', unit: '/s' },
  { key: 'serverCpu', label: 'server CPU (µs/call)', unit: 'µs', ratio: false },
  { key: 'driverCpu', label: 'driver CPU (% of a core)', unit: '%', ratio: false },
];

async function measure(server, step, sizes) {
  await drive({ workers: IN_FLIGHT, ...sizes.warmup, step });
  return driveMeasured(server, { workers: IN_FLIGHT, ...sizes.throughput, step });
}

async function runHttp(server, sizes) {
  // A server's own `headers` (its bearer token) ride on every request, initialize included.
  const connections = await Promise.all(
    Array.from({ length: IN_FLIGHT }, () =>
      RawHttpConnection.open(server.url, { headers: server.headers }),
    ),
  );
  try {
    const headers = await openSession(connections[0]);
    let id = 0;
    return await measure(
      server,
      (worker) => callTool(connections[worker], headers, server.call, ++id),
      sizes,
    );
  } finally {
    for (const connection of connections) connection.close();
  }
}

export const throughputHttp = {
  id: 'throughput-http',
  title: `tools/call throughput, ${IN_FLIGHT} in flight, Streamable HTTP (${IN_FLIGHT} keep-alive connections, one session)`,
  transport: 'http',
  // Every HTTP row, and Fastify's own ceiling beside them.
  alsoRuns: ['bare-fastify-http'],
  metrics,
  run: runHttp,
};

/**
 * The same load with bearer auth: every request carries `Authorization: Bearer <JWT>` (RS256),
 * which the server verifies against a local JWKS (the cached-key case: no key is fetched), beside
 * the same server unauthenticated, interleaved in the same invocation.
 */
export const throughputHttpAuth = {
  id: 'throughput-http-auth',
  title: `tools/call throughput with bearer auth, ${IN_FLIGHT} in flight, Streamable HTTP (every request carries an RS256 JWT, verified with a local JWKS)`,
  transport: 'http',
  servers: ['warden-http', 'warden-auth-http'],
  baselines: ['warden-http'],
  metrics,
  run: runHttp,
};

/**
 * A tool that exchanges its caller's token for a downstream API's (RFC 8693) before it answers,
 * beside the same (asynchronous) echo without the exchange, both with bearer auth: with the cache warm, one
 * exchange serves every call of the one bench caller (docs/token-exchange.md).
 */
export const throughputHttpExchange = {
  id: 'throughput-http-exchange',
  title: `tools/call throughput of a tool that exchanges its caller's token (cache warm), ${IN_FLIGHT} in flight, Streamable HTTP`,
  transport: 'http',
  servers: ['warden-exchange-baseline-http', 'warden-exchange-http'],
  baselines: ['warden-exchange-baseline-http'],
  metrics,
  run: runHttp,
};

/**
 * Two servers in one app (docs/several-servers.md), each loaded alone, beside the one-server
 * app: what a second server costs each server's calls (a second route binder in front of the
 * first, a second set of instances).
 */
export const throughputHttpTwoServers = {
  id: 'throughput-http-two-servers',
  title: `tools/call throughput of each of two servers in one app, ${IN_FLIGHT} in flight, Streamable HTTP`,
  transport: 'http',
  servers: ['warden-http', 'warden-two-servers-first-http', 'warden-two-servers-second-http'],
  baselines: ['warden-http'],
  metrics,
  run: runHttp,
};

/**
 * The same load against the same server with the OpenTelemetry SDK registered (a span per call,
 * its seam event, the duration histogram and counters recorded), beside it without one: the
 * telemetry layer's cost once something records.
 */
export const throughputHttpOtel = {
  id: 'throughput-http-otel',
  title: `tools/call throughput with the OpenTelemetry SDK registered, ${IN_FLIGHT} in flight, Streamable HTTP (a recorded span, seam event and metrics per call)`,
  transport: 'http',
  servers: ['warden-http', 'warden-otel-http'],
  baselines: ['warden-http'],
  metrics,
  run: runHttp,
};

/**
 * The same load against the same server calling `echo_zod` (its `{ text }` contract written as a
 * zod schema, validated by zod) beside `echo` (the same contract as JSON Schema, validated by Ajv).
 */
export const throughputHttpZod = {
  id: 'throughput-http-zod',
  title: `tools/call throughput of a zod tool, ${IN_FLIGHT} in flight, Streamable HTTP (the same echo with a zod schema, beside its JSON Schema twin)`,
  transport: 'http',
  servers: ['warden-http', 'warden-zod-http'],
  labels: { 'warden-http': 'mcp-warden (JSON Schema tool)' },
  baselines: ['warden-http'],
  metrics,
  run: runHttp,
};

/**
 * The same load against the same server keeping its audit records (docs/audit.md): a chained
 * JSON Lines file, then the same with failClosed (each call waits for its record's fsync).
 */
export const throughputHttpAudit = {
  id: 'throughput-http-audit',
  title: `tools/call throughput with durable audit records, ${IN_FLIGHT} in flight, Streamable HTTP (a chained JSON Lines sink, and with failClosed)`,
  transport: 'http',
  servers: ['warden-http', 'warden-audit-http', 'warden-audit-fail-closed-http'],
  labels: { 'warden-http': 'mcp-warden (no sink)' },
  baselines: ['warden-http'],
  metrics,
  run: runHttp,
};

/**
 * The notes service's write path beside its read path (issue: the service's `create_note`
 * reported as `search_notes` is): `create_note` makes a new note per call, committed to its
 * SQLite store (with its audit records, in the same database) before the answer. Its own notes
 * directory, so the search row's store stays empty.
 */
export const throughputHttpServiceWrites = {
  id: 'throughput-http-service-writes',
  title: `notes service create_note throughput, ${IN_FLIGHT} in flight, Streamable HTTP (a new note per call, committed before the answer; search_notes beside it)`,
  transport: 'http',
  servers: ['service-http', 'service-create-http'],
  labels: { 'service-http': 'notes service (search_notes)' },
  baselines: ['service-http'],
  metrics,
  run: runHttp,
};

/**
 * The same load against the same server deciding with the Cedar twin of its closure policy
 * (servers/echo-policy.mjs), beside it with the closures. Every call is the same, so after the
 * first the decision cache answers; every answer must be the echo, so a Cedar set that did not
 * allow `echo` fails the run.
 */
export const throughputHttpCedar = {
  id: 'throughput-http-cedar',
  title: `tools/call throughput with a Cedar policy, ${IN_FLIGHT} in flight, Streamable HTTP (the same calls each time: the decision cache answers)`,
  transport: 'http',
  servers: ['warden-http', 'warden-cedar-http'],
  labels: { 'warden-http': 'mcp-warden (closure policy)' },
  baselines: ['warden-http'],
  metrics,
  run: runHttp,
};

/**
 * As throughput-http-cedar, but every call carries a text no call before it did, to the twin
 * whose `echo` rule reads that text (WARDEN_POLICY=cedar-input): the decision cache never hits
 * and Cedar evaluates every call. (The plain twin reads no argument of `echo`, so there every
 * text shares one decision.) The closure row sends its usual fixed text.
 */
export const throughputHttpCedarVaried = {
  id: 'throughput-http-cedar-varied',
  title: `tools/call throughput with a Cedar policy, ${IN_FLIGHT} in flight, Streamable HTTP (a new argument every call: Cedar evaluates each)`,
  transport: 'http',
  servers: ['warden-http', 'warden-cedar-varied-http'],
  labels: { 'warden-http': 'mcp-warden (closure policy)' },
  baselines: ['warden-http'],
  metrics,
  run: runHttp,
};

export const throughputStdio = {
  id: 'throughput-stdio',
  title: `tools/call throughput, ${IN_FLIGHT} pipelined, stdio`,
  transport: 'stdio',
  metrics,
  async run(server, sizes) {
    const client = await server.stdio();
    return measure(server, () => client.callTool(server.call), sizes);
  },
};
