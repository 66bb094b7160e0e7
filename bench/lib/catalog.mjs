// Every server under test. `role` marks the baselines the ratio columns divide by; `call` is the
// tools/call each server answers in the load workloads and `guarded` the one that needs approval;
// `headers` go on every HTTP request to it; a `dedicated` server runs only in the workloads that
// name it (`workload.servers`), which may relabel a row for their table (`workload.labels`);
// `era: 'modern'` marks a row the modern-era workload drives in the 2026-07-28 era, and `tasks` one
// the tasks workloads drive as tasks; `needsRedis`, a row that sits out (alone) when the bench's
// Redis does not answer (bench/lib/redis-check.mjs).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGAINST } from './against.mjs';
import {
  createNoteCall,
  deleteNoteCall,
  echoCall,
  searchNotesCall,
  variedEchoCall,
} from './mcp.mjs';
import { BENCH_REDIS_URL } from './redis-check.mjs';

const path = (relative) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));

export const BASELINES = ['bare', 'sdk-1.x', 'sdk-2.x'];

/** Where the audit rows keep their JSON Lines files: beside `dataDir`, removed with it. */
const auditRootOf = (dataDir) => `${dataDir}-audit`;

/**
 * The notes directory of the service's write row: its own, so the notes it creates never reach
 * the search rows' store (a search over thousands of notes is another workload).
 */
const writesDirOf = (dataDir) => `${dataDir}-writes`;

/**
 * A fresh notes directory for catalog() (`dataDir`, named from `prefix`), with the audit rows'
 * folder beside it. `remove()` deletes both, and the copy a twin of the notes service was given
 * (lib/against.mjs), whichever exist.
 */
export function benchDataDir(prefix) {
  const dataDir = mkdtempSync(join(os.tmpdir(), prefix));
  mkdirSync(auditRootOf(dataDir));
  mkdirSync(writesDirOf(dataDir));
  const remove = () => {
    const writes = writesDirOf(dataDir);
    for (const dir of [dataDir, auditRootOf(dataDir), writes]) {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}${AGAINST}`, { recursive: true, force: true });
    }
  };
  return { dataDir, remove };
}

/**
 * `dataDir`: an empty notes directory for the service; `auth`: the identity of the authenticated
 * row (`{ env, headers }` from bench-auth.mjs).
 */
export function catalog(dataDir, auth) {
  const echo = { call: echoCall(), guarded: echoCall('guarded_echo') };
  const taskEcho = { ...echo, call: echoCall('echo_task') };
  // The service (dist/app/main*.js, its own notes tools and policy) has the default bound of
  // 1,000 sessions, so it sits out the workloads that open thousands. Its per-caller quota of
  // 1,000 calls per second (the bench is one caller) is raised through its own setting, so the
  // throughput rows measure the service, not the limiter.
  const service = {
    env: { DATA_DIR: dataDir, CALLS_PER_SECOND_PER_PRINCIPAL: '1000000000' },
    call: searchNotesCall(),
    guarded: deleteNoteCall(),
    sessionBound: 1_000,
  };
  // The audit rows: the echo server keeping its records (`mode`: WARDEN_AUDIT) beside dataDir.
  const audited = (mode) => ({
    ...echo,
    env: { WARDEN_AUDIT: mode, WARDEN_AUDIT_ROOT: auditRootOf(dataDir) },
    dedicated: true,
  });
  const server = (id, label, role, script, extra = echo) => ({
    id,
    label,
    role,
    transport: id.endsWith('-stdio') ? 'stdio' : 'http',
    script: path(script),
    ...extra,
  });
  return [
    server('bare-http', 'bare node:http', 'bare', 'bench/servers/bare-http.mjs'),
    // Fastify's own ceiling (a plain JSON route), for the Warden Fastify row: calls only.
    server('bare-fastify-http', 'bare Fastify', undefined, 'bench/servers/bare-fastify.mjs', {
      ...echo,
      dedicated: true,
    }),
    server('sdk1-http', 'sdk-1.x', 'sdk-1.x', 'bench/servers/sdk1-http.mjs'),
    server('sdk2-http', 'sdk-2.x', 'sdk-2.x', 'bench/servers/sdk2-http.mjs'),
    server('warden-http', 'mcp-warden', undefined, 'bench/servers/warden-http.mjs'),
    // The 2026-07-28 era, stateless: the same Warden server (it serves both eras on one
    // endpoint), and the SDK 2.x server's own entry for that era.
    server(
      'warden-modern-http',
      'mcp-warden (2026-07-28, stateless)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...echo, era: 'modern', dedicated: true },
    ),
    server(
      'sdk2-modern-http',
      'sdk-2.x (2026-07-28, createMcpHandler)',
      undefined,
      'bench/servers/sdk2-modern-http.mjs',
      { ...echo, era: 'modern', dedicated: true },
    ),
    // The tasks workloads (workloads/tasks.mjs): the same server's `echo_task` (`task:
    // 'optional'`) in the 2026-07-28 era, called plainly (answered at once) and as a task (`tasks`:
    // created by tools/call, polled with tasks/get), on the in-memory task store.
    server(
      'warden-task-call-http',
      'mcp-warden (echo_task, a plain tools/call)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...taskEcho, era: 'modern', dedicated: true },
    ),
    server(
      'warden-tasks-http',
      'mcp-warden (echo_task as a task, polled to completion)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...taskEcho, era: 'modern', tasks: true, dedicated: true },
    ),
    // The same tasks in cluster mode, one instance, direct (its server CPU is comparable): the
    // task store is Redis (RedisTaskStore). Its own key prefix, deleted when the process stops.
    server(
      'warden-cluster-tasks-http',
      'mcp-warden (echo_task as a task, cluster mode: Redis store)',
      undefined,
      'bench/servers/warden-http.mjs',
      {
        ...taskEcho,
        era: 'modern',
        tasks: true,
        needsRedis: true,
        env: {
          WARDEN_REDIS_URL: redisUrl(),
          WARDEN_CLUSTER_PREFIX: clusterPrefix('tasks'),
          WARDEN_CLUSTER_CLEANUP: '1',
        },
        dedicated: true,
      },
    ),
    // The same server and fast-path setting with bearer auth on, local keys (no fetch).
    server(
      'warden-auth-http',
      'mcp-warden (bearer JWT, local JWKS)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...echo, env: auth.env, headers: auth.headers, dedicated: true },
    ),
    // The same, calling `echo_exchange`: a token exchange per call, served by its warm cache;
    // and beside it the same tool without the exchange (`echo_async`).
    server(
      'warden-exchange-baseline-http',
      'mcp-warden (bearer JWT, the same echo without the exchange)',
      undefined,
      'bench/servers/warden-http.mjs',
      {
        ...echo,
        call: echoCall('echo_async'),
        env: auth.exchangeEnv,
        headers: auth.headers,
        dedicated: true,
      },
    ),
    server(
      'warden-exchange-http',
      'mcp-warden (bearer JWT, echo after a token exchange)',
      undefined,
      'bench/servers/warden-http.mjs',
      {
        ...echo,
        call: echoCall('echo_exchange'),
        env: auth.exchangeEnv,
        headers: auth.headers,
        dedicated: true,
      },
    ),
    // Two identical servers in one app (docs/several-servers.md), each loaded on its own: the
    // first at /mcp, the second at /second/mcp.
    server(
      'warden-two-servers-first-http',
      'mcp-warden (two servers in one app: the first)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...echo, env: { WARDEN_SERVERS: '2' }, dedicated: true },
    ),
    server(
      'warden-two-servers-second-http',
      'mcp-warden (two servers in one app: the second)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...echo, env: { WARDEN_SERVERS: '2', WARDEN_TARGET: 'second' }, dedicated: true },
    ),
    // The same server with the OpenTelemetry SDK registered (traces and metrics recorded).
    server(
      'warden-otel-http',
      'mcp-warden (OpenTelemetry SDK registered)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...echo, env: { WARDEN_OTEL: '1' }, dedicated: true },
    ),
    // The same server and tool contract with a zod schema instead of JSON Schema.
    server('warden-zod-http', 'mcp-warden (zod tool)', undefined, 'bench/servers/warden-http.mjs', {
      call: echoCall('echo_zod'),
      guarded: echo.guarded,
      dedicated: true,
    }),
    // The same server deciding with the Cedar twin of its closure policy (WARDEN_POLICY=cedar,
    // servers/echo-policy.mjs): the same call every time (after the first, the decision cache
    // answers). The varied row sends a new text every call to the twin with `echo`'s rule reading
    // that text (cedar-input): no rule of the plain twin reads it, so there every text would share
    // one cached decision; here the cache never hits, and Cedar evaluates each call.
    server(
      'warden-cedar-http',
      'mcp-warden (Cedar policy)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...echo, env: { WARDEN_POLICY: 'cedar' }, dedicated: true },
    ),
    server(
      'warden-cedar-varied-http',
      'mcp-warden (Cedar policy reading the argument, a new one every call)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...echo, call: variedEchoCall(), env: { WARDEN_POLICY: 'cedar-input' }, dedicated: true },
    ),
    // The same server keeping every audit record in a chained JSON Lines file (group-committed
    // fsyncs), and with failClosed, where each call waits for its decision record's fsync.
    server(
      'warden-audit-http',
      'mcp-warden (audit: JSON Lines sink, chained)',
      undefined,
      'bench/servers/warden-http.mjs',
      audited('jsonl'),
    ),
    server(
      'warden-audit-fail-closed-http',
      'mcp-warden (audit: JSON Lines sink, failClosed)',
      undefined,
      'bench/servers/warden-http.mjs',
      audited('jsonl-fail-closed'),
    ),
    // The chain without its writes (a sink that keeps nothing): in no workload, for paired runs
    // (`node bench/paired.mjs --row warden-audit-discard-http --versus warden-http`) that split
    // what the audit costs between the journal's own work and the file's writes.
    server(
      'warden-audit-discard-http',
      'mcp-warden (audit: chained, kept nowhere)',
      undefined,
      'bench/servers/warden-http.mjs',
      audited('discard'),
    ),
    // The policy on its own, in process (workloads/policy.mjs): the scripts are the rows.
    server(
      'warden-cedar-decide',
      'mcp-warden (Cedar policy, in process)',
      undefined,
      'bench/policy/decide-cpu.mjs',
      { dedicated: true },
    ),
    server(
      'warden-cedar-reload',
      'mcp-warden (1,000 Cedar policies, in process)',
      undefined,
      'bench/policy/reload-stall.mjs',
      { dedicated: true },
    ),
    server(
      'warden-express-http',
      'mcp-warden (through express)',
      undefined,
      'bench/servers/warden-http.mjs',
      { ...echo, env: { WARDEN_FAST_PATH: 'off' } },
    ),
    server(
      'warden-fastify-http',
      'mcp-warden (fastify)',
      undefined,
      'bench/servers/warden-fastify.mjs',
    ),
    server('service-http', 'notes service', undefined, 'dist/app/main.js', service),
    // The service without its audit records (the stream on stderr stays): in no workload, for
    // paired runs (`node bench/paired.mjs --row service-http --versus service-no-records-http`)
    // that measure what keeping the chain in its database costs a call.
    server(
      'service-no-records-http',
      'notes service (no audit records)',
      undefined,
      'dist/app/main.js',
      {
        ...service,
        env: { ...service.env, AUDIT_RECORDS: 'off' },
        dedicated: true,
      },
    ),
    // The service's write path (throughput-http-service-writes): create_note, a new note per
    // call, committed before the answer, in a notes directory of its own. Every ref's service
    // has create_note with these arguments, so `--against` twins it even where the ref's
    // catalog has no such row.
    server('service-create-http', 'notes service (create_note)', undefined, 'dist/app/main.js', {
      ...service,
      env: { ...service.env, DATA_DIR: writesDirOf(dataDir) },
      call: createNoteCall(),
      dedicated: true,
      twinAnyRef: true,
    }),
    ...coldStartRows('http', echo, service),
    // Cluster mode (throughput-cluster): the same server with `cluster` on the bench's Redis,
    // direct; and behind the round-robin proxy to one embedded, one and two clustered instances.
    server(
      'warden-redis-http',
      'mcp-warden (cluster mode, one instance)',
      undefined,
      'bench/servers/warden-http.mjs',
      {
        ...echo,
        env: { WARDEN_REDIS_URL: redisUrl(), WARDEN_CLUSTER_PREFIX: clusterPrefix() },
        dedicated: true,
      },
    ),
    ...[
      ['warden-proxy-embedded', 'proxy → 1 mcp-warden (embedded)', {}],
      [
        'warden-proxy-cluster-1',
        'proxy → 1 mcp-warden (cluster mode)',
        { CLUSTER_REDIS_URL: redisUrl() },
      ],
      [
        'warden-proxy-cluster-2',
        'proxy → 2 mcp-warden (cluster mode)',
        { CLUSTER_REDIS_URL: redisUrl(), CLUSTER_INSTANCES: '2' },
      ],
    ].map(([id, label, env]) =>
      server(id, label, undefined, 'bench/servers/warden-cluster-http.mjs', {
        ...echo,
        env,
        dedicated: true,
      }),
    ),
    server('bare-stdio', 'bare stdio', 'bare', 'bench/servers/bare-stdio.mjs'),
    server('sdk1-stdio', 'sdk-1.x', 'sdk-1.x', 'bench/servers/sdk1-stdio.mjs'),
    server('sdk2-stdio', 'sdk-2.x', 'sdk-2.x', 'bench/servers/sdk2-stdio.mjs'),
    server('warden-stdio', 'mcp-warden', undefined, 'bench/servers/warden-stdio.mjs'),
    server('service-stdio', 'notes service', undefined, 'dist/app/main-stdio.js', service),
    ...coldStartRows('stdio', echo, service),
  ];

  /**
   * The cold-start rows (bench/workloads/cold-start.mjs): the bench's Warden server with the
   * SDK servers' tools only (JSON Schema `echo` and `guarded_echo`: no DTO tool, so no
   * class-validator), as tsc built it and bundled (over stdio, also bundled with the Cedar twin of
   * its policy); and the service's shipped bundle.
   */
  function coldStartRows(transport, echoCalls, serviceRow) {
    const lean = { ...echoCalls, transport, env: { WARDEN_DTO_TOOL: 'off' }, dedicated: true };
    const entry = `bench/servers/warden-${transport}.mjs`;
    const launcher = transport === 'stdio' ? 'dist/bundle/main-stdio.mjs' : 'dist/bundle/main.mjs';
    // Cedar stays out of the bundle (src/cli/bundle/externals.ts): it loads from node_modules.
    const cedarEnv = { ...lean.env, WARDEN_POLICY: 'cedar' };
    const cedar =
      transport === 'stdio'
        ? [
            server(
              'warden-stdio-cedar-bundled',
              'mcp-warden (bundled, Cedar policy)',
              undefined,
              entry,
              {
                ...lean,
                env: cedarEnv,
                bundle: path(entry),
                // Bundled as a Cedar app is (docs/stdio.md, "Cold start").
                preloadCedar: true,
              },
            ),
          ]
        : [];
    return [
      server(`warden-${transport}-lean`, 'mcp-warden (as built)', undefined, entry, lean),
      server(`warden-${transport}-bundled`, 'mcp-warden (bundled)', undefined, entry, {
        ...lean,
        bundle: path(entry),
      }),
      ...cedar,
      server(`service-${transport}-bundled`, 'notes service (bundled)', undefined, launcher, {
        ...serviceRow,
        transport,
        dedicated: true,
      }),
    ];
  }
}

/** The Redis the cluster rows use. */
function redisUrl() {
  return BENCH_REDIS_URL;
}

/** A key prefix of this bench invocation's own (and of one row's, with `row`). */
function clusterPrefix(row) {
  return `mcp-warden-bench:${process.pid}${row ? `-${row}` : ''}:`;
}

/**
 * The servers a workload runs against: the ones it names, in that order, or every fitting one
 * (a dedicated row only where the workload's `alsoRuns` names it);
 * with `--against`, each named row's twin follows it (bench/lib/against.mjs).
 */
export function serversFor(workload, servers) {
  if (workload.servers) {
    return workload.servers
      .flatMap((id) => servers.filter((s) => s.id === id || s.twinOf === id))
      .map((s) => {
        const label = workload.labels?.[s.twinOf ?? s.id];
        if (!label) return s;
        return {
          ...s,
          label: s.twinOf ? `${label}${s.label.slice(s.label.lastIndexOf(' @ '))}` : label,
        };
      });
  }
  return servers.filter(
    (server) =>
      server.transport === workload.transport &&
      (!server.dedicated || workload.alsoRuns?.includes(server.id)) &&
      !(workload.needsSessions && server.sessionBound) &&
      !(workload.needsElicitation && !server.guarded),
  );
}
