import { Injectable, Logger, ConsoleLogger, type LogLevel } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { McpTool, type Authorizer, type McpRequestContext } from '../../src/index.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import { registerTracing } from './otel-harness.js';

/*
 * The spans beside the request spans (the real OpenTelemetry SDK, the
 * official SDK client 1.x over Streamable HTTP): a tool's request to the
 * client is a CLIENT span under the call's span, carrying its context in
 * `_meta`; a notification from the client is a SERVER span joined to the
 * client's trace; and a log line about a failing call names the call's
 * request and trace.
 */

const tracing = registerTracing();

/** Nest's JSON logger (the service's settings), keeping each record instead of printing it. */
class RecordingLogger extends ConsoleLogger {
  readonly records: Record<string, unknown>[] = [];
  constructor() {
    super({ json: true, flattenParams: true, logLevels: ['error', 'warn'] as LogLevel[] });
  }
  protected override printAsJson(message: unknown, options: Record<string, unknown>): void {
    this.records.push(this.getJsonLogObject(message, options as never) as Record<string, unknown>);
  }
}
const logs = new RecordingLogger();

@Injectable()
class RootsTools {
  @McpTool({ description: 'Lists the client roots' })
  async list_roots(_args: object, ctx: McpRequestContext) {
    const { roots } = await ctx.listRoots();
    return roots.map((root) => root.uri).join(',');
  }

  @McpTool({ description: 'Always fails' })
  explode(): never {
    throw new Error('the disk is on fire');
  }
}

const allowAll: Authorizer = () => ({ kind: 'allow' });

let t: HttpTestApp;
let client: Client;
/** The `_meta` of every roots/list the client was sent. */
const rootsMeta: unknown[] = [];

beforeAll(async () => {
  t = await createHttpApp(
    { authorizer: allowAll, authorizerSource: 'configured', readAuthorizer: allowAll },
    [RootsTools],
  );
  // After the app: creating it with `logger: false` replaces the global logger.
  Logger.overrideLogger(logs);
  client = new Client(
    { name: 'jest-spans', version: '1.0.0' },
    { capabilities: { roots: { listChanged: true } } },
  );
  client.setRequestHandler(ListRootsRequestSchema, (request) => {
    rootsMeta.push(request.params?._meta);
    return { roots: [{ uri: 'file:///projects/notes', name: 'notes' }] };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
});

afterAll(async () => {
  await client?.close();
  await t?.close();
  Logger.overrideLogger(new ConsoleLogger());
  await tracing.dispose();
});

beforeEach(() => {
  tracing.exporter.reset();
  rootsMeta.length = 0;
  logs.records.length = 0;
});

async function finished(name: string): Promise<ReadableSpan> {
  await until(() => tracing.span(name) !== undefined, `span ${name}`);
  return tracing.span(name)!;
}

/** A client-side span and the `_meta` that carries its context (the real W3C propagator). */
function clientSpan(name: string) {
  const span = trace.getTracer('jest-client').startSpan(name, { kind: SpanKind.CLIENT });
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), meta);
  span.end();
  return { context: span.spanContext(), meta };
}

describe('spans beside the request spans', () => {
  it("a tool's roots/list to the client is a CLIENT span under the call, its context in _meta", async () => {
    const result = await client.callTool({ name: 'list_roots', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'file:///projects/notes' }]);

    const call = await finished('tools/call list_roots');
    const roots = await finished('roots/list');
    expect(roots.kind).toBe(SpanKind.CLIENT);
    expect(roots.attributes['mcp.method.name']).toBe('roots/list');
    expect(roots.spanContext().traceId).toBe(call.spanContext().traceId);
    expect(roots.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(roots.status.code).toBe(SpanStatusCode.UNSET);
    // The client was handed the roots/list span's own context.
    const sent = rootsMeta[0] as { traceparent?: string };
    expect(sent.traceparent).toBe(
      `00-${roots.spanContext().traceId}-${roots.spanContext().spanId}-01`,
    );
  });

  it('a notification from the client is a SERVER span in the trace its _meta names', async () => {
    const caller = clientSpan('agent changes roots');
    await client.notification({
      method: 'notifications/roots/list_changed',
      params: { _meta: caller.meta },
    });
    const notified = await finished('notifications/roots/list_changed');
    expect(notified.kind).toBe(SpanKind.SERVER);
    expect(notified.spanContext().traceId).toBe(caller.context.traceId);
    expect(notified.parentSpanContext?.spanId).toBe(caller.context.spanId);
    expect(notified.attributes).toMatchObject({
      'mcp.method.name': 'notifications/roots/list_changed',
      'network.transport': 'tcp',
    });
  });

  it("a failing tool's log line names its connection, request and trace", async () => {
    const result = await client.callTool({ name: 'explode', arguments: {} });
    expect(result.isError).toBe(true);
    const call = await finished('tools/call explode');
    const line = logs.records.find((record) => String(record.message).startsWith('Tool explode'));
    expect(line).toMatchObject({
      level: 'error',
      context: 'McpTools',
      connId: expect.any(String),
      requestId: expect.anything(),
      traceId: call.spanContext().traceId,
    });
    expect(String(call.attributes['jsonrpc.request.id'])).toBe(String(line!.requestId));
  });
});
