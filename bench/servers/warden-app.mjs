// What the Warden bench servers share: the `echo` and `guarded_echo` tools (JSON Schema) and
// `echo_dto` (the same echo with a class-validator DTO, for the hostile-body workload),
// `echo_zod` (the same echo with a zod schema, for throughput-http-zod) and `echo_task` (the same
// echo with `task: 'optional'`, for the tasks workloads), registered at runtime through
// McpRegistry, behind the bench's policy (echo-policy.mjs): closures by default, the equivalent
// Cedar set with WARDEN_POLICY=cedar.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { z } from 'zod';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpAuditSinks, McpModule, getMcpRegistryToken } from '../../dist/index.js';
import { echoPolicyOptions } from './echo-policy.mjs';

const textInput = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
};

/**
 * `{ text: string }` as a DTO (plain JS: the decorator applied by hand). WARDEN_DTO_TOOL=off leaves
 * `echo_dto` out, and class-validator unloaded: the cold-start rows serve the same tools as the SDK
 * servers (JSON Schema only), as most stdio servers do.
 */
const EchoDto = process.env.WARDEN_DTO_TOOL === 'off' ? undefined : await echoDto();
/*
 * `{ text: string }` as a zod schema: the same contract as `textInput`, a Standard Schema. zod is
 * imported statically: the framework loads it anyway (the MCP types are zod schemas), and a
 * dynamic import of it makes esbuild wrap zod for lazy initialisation, which its module cycles
 * do not survive in the bundled rows.
 */
const echoZod = process.env.WARDEN_DTO_TOOL === 'off' ? undefined : z.object({ text: z.string() });

/*
 * `echo` as a tool that may run as a durable task (SEP-2663): a task when a modern request declares
 * the tasks extension, an ordinary call otherwise. Left out with the DTO tool, like `echo_zod`.
 */
const echoTask = process.env.WARDEN_DTO_TOOL !== 'off';

/* `echo` after a token exchange (docs/token-exchange.md), where WARDEN_AUTH configures one. */
const echoExchange = Boolean(JSON.parse(process.env.WARDEN_AUTH ?? '{}').tokenExchange);

async function echoDto() {
  const { IsString } = await import('class-validator');
  class EchoDto {}
  IsString()(EchoDto.prototype, 'text');
  return EchoDto;
}

function registerEchoTools(registry) {
  registry.registerTool({
    name: 'echo',
    description: 'Echo the text',
    inputSchema: textInput,
    handler: ({ text }) => String(text),
  });
  if (EchoDto) {
    registry.registerTool({
      name: 'echo_dto',
      description: 'Echo the text (DTO-validated arguments)',
      inputSchema: EchoDto,
      handler: ({ text }) => String(text),
    });
  }
  if (echoZod) {
    registry.registerTool({
      name: 'echo_zod',
      description: 'Echo the text (zod-validated arguments)',
      inputSchema: echoZod,
      handler: ({ text }) => String(text),
    });
  }
  if (echoTask) {
    registry.registerTool({
      name: 'echo_task',
      description: 'Echo the text (a task when the caller can take one)',
      inputSchema: textInput,
      task: 'optional',
      handler: ({ text }) => String(text),
    });
  }
  if (echoExchange) {
    // The same tool without the exchange: asynchronous too, as a tool that calls an API is.
    registry.registerTool({
      name: 'echo_async',
      description: 'Echo the text, asynchronously',
      inputSchema: textInput,
      handler: async ({ text }) => String(text),
    });
    registry.registerTool({
      name: 'echo_exchange',
      description: 'Echo the text, after exchanging the caller’s token for a downstream one',
      inputSchema: textInput,
      handler: async ({ text }, ctx) => {
        await ctx.credentials.exchange({ audience: 'https://downstream.bench.invalid/api' });
        return String(text);
      },
    });
  }
  registry.registerTool({
    name: 'guarded_echo',
    description: 'Echo the text, once a human approves',
    inputSchema: textInput,
    handler: ({ text }) => String(text),
  });
  return true;
}

/** The tools the policy lets run without asking: the echoes this process registers. */
function allowedTools() {
  return [
    'echo',
    ...(EchoDto ? ['echo_dto'] : []),
    ...(echoZod ? ['echo_zod'] : []),
    ...(echoTask ? ['echo_task'] : []),
    ...(echoExchange ? ['echo_exchange', 'echo_async'] : []),
  ];
}

function auditOptions(mode) {
  if (!mode) return undefined;
  // The chain alone: every record numbered, written as its line and hashed, handed to a sink
  // that keeps nothing. What the journal costs before any write (docs/audit.md, "Performance").
  if (mode === 'discard') return { sinks: [{ name: 'discard', write: async () => {} }] };
  if (mode !== 'jsonl' && mode !== 'jsonl-fail-closed') {
    throw new Error(`WARDEN_AUDIT=${mode}: expected jsonl, jsonl-fail-closed or discard`);
  }
  // Some 50 MB per 5-second measurement: removed when this server exits, and the bench removes
  // WARDEN_AUDIT_ROOT (its own folder) at the end of a run, should a server be killed.
  const dir = mkdtempSync(
    join(process.env.WARDEN_AUDIT_ROOT ?? tmpdir(), 'mcp-warden-bench-audit-'),
  );
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return {
    sinks: [McpAuditSinks.jsonl({ dir })],
    failClosed: mode === 'jsonl-fail-closed',
  };
}

class WardenBenchModule {}
Module({})(WardenBenchModule);

/**
 * The app module for `transport` ('http' or 'stdio'), with `limits` over the defaults;
 * WARDEN_FAST_PATH=off serves the MCP routes through Express even with no middleware in front.
 * WARDEN_AUTH (JSON `{ issuer, audience, jwks }`, see bench/lib/bench-auth.mjs) turns on the
 * built-in bearer auth with those local keys: every request must carry a token they verify.
 * WARDEN_REDIS_URL (with WARDEN_CLUSTER_PREFIX) turns on cluster mode on that Redis.
 * WARDEN_POLICY=cedar decides both seams with the Cedar twin of the closures.
 * WARDEN_AUDIT=jsonl keeps every record in a chained JSON Lines file (a fresh folder under
 * WARDEN_AUDIT_ROOT, else the OS temp directory, removed at exit);
 * `jsonl-fail-closed` also makes each call wait for its decision record's fsync;
 * `discard` chains every record and hands it to a sink that keeps nothing.
 * WARDEN_SERVERS=2 serves a second, identical server in the same app (docs/several-servers.md),
 * `warden-echo-2` at /second/mcp: the first keeps /mcp.
 */
export function wardenBenchModule(transport, limits) {
  const names =
    process.env.WARDEN_SERVERS === '2' ? ['warden-echo', 'warden-echo-2'] : ['warden-echo'];
  return {
    module: WardenBenchModule,
    imports: names.map((name, index) => echoServer(name, index, transport, limits)),
    // A factory provider is how plain JS registers tools at bootstrap without decorators; each
    // server's own registry, by name (an app with several servers names the one it means).
    providers: names.map((name) => ({
      provide: `bench-echo-tools:${name}`,
      useFactory: registerEchoTools,
      inject: [getMcpRegistryToken(name)],
    })),
  };
}

/* One echo server: the first at /mcp, the second at /second/mcp (each its own SSE pair). */
function echoServer(name, index, transport, limits) {
  const paths = index === 0 ? {} : { path: '/second/mcp', ssePairPath: '/second' };
  return McpModule.forRoot({
    name,
    version: '1.0.0',
    transport,
    ...echoPolicyOptions(process.env.WARDEN_POLICY, allowedTools()),
    // One bench client drives every call and session: per-caller quotas would measure
    // themselves, so they are raised with the table bound. A finished task is kept until its
    // TTL (10 minutes), and the tasks workloads create thousands a second: their bounds too.
    limits: {
      callsPerSecondPerPrincipal: 1e9,
      maxSessionsPerPrincipal: limits?.maxSessions,
      maxTasks: 1_000_000,
      maxTasksPerPrincipal: 1_000_000,
      ...limits,
    },
    cluster: process.env.WARDEN_REDIS_URL
      ? {
          redisUrl: process.env.WARDEN_REDIS_URL,
          keyPrefix: process.env.WARDEN_CLUSTER_PREFIX,
        }
      : undefined,
    audit: auditOptions(process.env.WARDEN_AUDIT),
    http: {
      ...paths,
      fastPath: process.env.WARDEN_FAST_PATH === 'off' ? false : 'auto',
      auth: process.env.WARDEN_AUTH ? JSON.parse(process.env.WARDEN_AUTH) : undefined,
    },
  });
}
