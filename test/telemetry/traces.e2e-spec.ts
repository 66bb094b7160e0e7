import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
} from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { McpTool, McpWarden, type Authorizer, type McpAuditEvent } from '../../src/index.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import { registerTracing } from './otel-harness.js';

/*
 * Traces of real calls from the official SDK client (1.x) over Streamable
 * HTTP, through the real OpenTelemetry SDK: the server span per request and
 * its conventions' attributes, the client's trace context taken from
 * `params._meta`, seam decisions as events and the approval wait as a child.
 */

const tracing = registerTracing();
const runs: string[] = [];

@Injectable()
class TracedTools {
  @McpTool({
    description: 'Echo the text back',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return text;
  }

  @McpTool({
    description: 'Drop the table (needs approval)',
    annotations: { destructiveHint: true },
  })
  drop_table() {
    // The application's own span, started inside the handler, joins the request's trace.
    trace.getTracer('notes-app').startActiveSpan('drop rows', (span) => span.end());
    runs.push('drop_table');
    return 'table dropped';
  }
}

const toolPolicy: Authorizer = (name) =>
  name === 'echo'
    ? { kind: 'allow' }
    : name === 'drop_table'
      ? { kind: 'ask', prompt: 'Drop the table?' }
      : { kind: 'deny', reason: 'not_in_policy' };
const readPolicy: Authorizer = (method) =>
  method === 'prompts/list' ? { kind: 'deny', reason: 'no_prompts_here' } : { kind: 'allow' };

let t: HttpTestApp;
let client: Client;
const answer: { current: ElicitResult } = { current: { action: 'decline' } };
/** The `_meta` of every elicitation/create the client was sent. */
const elicitedMeta: unknown[] = [];

beforeAll(async () => {
  t = await createHttpApp(
    {
      authorizer: toolPolicy,
      authorizerSource: 'configured',
      readAuthorizer: readPolicy,
      // Every caller is alice: the principal's subject appears on the seam events.
      http: { authenticate: () => ({ subject: 'alice', scopes: [] }) },
    },
    [TracedTools],
  );
  client = new Client(
    { name: 'jest-traces', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    elicitedMeta.push(request.params._meta);
    return answer.current;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
});

afterAll(async () => {
  await client?.close();
  await t?.close();
  await tracing.dispose();
});

beforeEach(() => {
  tracing.exporter.reset();
  elicitedMeta.length = 0;
});

/** A client-side span and the `_meta` that carries its context (the real W3C propagator). */
function clientSpan(name: string) {
  const span = trace.getTracer('jest-client').startSpan(name, { kind: SpanKind.CLIENT });
  const meta: Record<string, string> = {};
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), meta);
  span.end();
  return { context: span.spanContext(), meta };
}

async function finished(name: string): Promise<ReadableSpan> {
  await until(() => tracing.span(name) !== undefined, `span ${name}`);
  return tracing.span(name)!;
}

const childrenOf = (parent: ReadableSpan) =>
  tracing.spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

const decisions = (span: ReadableSpan): Attributes[] =>
  span.events.filter((e) => e.name === 'mcp_warden.seam.decision').map((e) => e.attributes ?? {});

describe('MCP server spans (OpenTelemetry conventions for MCP)', () => {
  it('joins the client trace from _meta and covers ask → elicitation → accept → the tool run', async () => {
    answer.current = { action: 'accept', content: { approve: true } };
    const caller = clientSpan('agent calls drop_table');
    const audit: McpAuditEvent[] = [];
    const auditing = t.app
      .get(McpWarden)
      .audit$.subscribe((event) => event.kind === 'decision' && audit.push(event));
    const result = await client.callTool({ name: 'drop_table', arguments: {}, _meta: caller.meta });
    auditing.unsubscribe();
    expect(result.isError).toBeFalsy();
    expect(runs).toContain('drop_table');

    const server = await finished('tools/call drop_table');
    expect(server.kind).toBe(SpanKind.SERVER);
    // The client's span is the parent: one trace across client and server.
    expect(server.spanContext().traceId).toBe(caller.context.traceId);
    expect(server.parentSpanContext?.spanId).toBe(caller.context.spanId);
    // Its audit events (the ask, then the approval) name the same trace.
    expect(audit.map((event) => [event.seam, event.decision, event.traceId])).toEqual([
      ['tool', 'ask', caller.context.traceId],
      ['elicitation', 'allow', caller.context.traceId],
    ]);
    expect(server.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'drop_table',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'client.address': '127.0.0.1',
    });
    expect(typeof server.attributes['jsonrpc.request.id']).toBe('string');
    // A digest of the session id, never the id itself.
    expect(server.attributes['mcp.session.id']).toMatch(/^[0-9a-f]{32}$/);
    expect(server.attributes['error.type']).toBeUndefined();
    expect(server.status.code).toBe(SpanStatusCode.UNSET);

    // The seam's ask, then the user's approval, as events in order (no prompt text).
    expect(decisions(server)).toEqual([
      {
        'mcp_warden.seam': 'tool',
        'mcp_warden.decision': 'ask',
        'mcp_warden.name': 'drop_table',
        'mcp_warden.principal': 'alice',
      },
      {
        'mcp_warden.seam': 'elicitation',
        'mcp_warden.decision': 'allow',
        'mcp_warden.name': 'drop_table',
        'mcp_warden.reason': 'user approved',
        'mcp_warden.principal': 'alice',
      },
    ]);

    // The approval wait: a child span that ends with the outcome, before the tool ran.
    const children = childrenOf(server);
    const wait = children.find((span) => span.name === 'elicitation/create')!;
    expect(wait).toBeDefined();
    expect(wait.kind).toBe(SpanKind.CLIENT);
    expect(wait.attributes).toMatchObject({
      'mcp.method.name': 'elicitation/create',
      'gen_ai.tool.name': 'drop_table',
      'mcp_warden.approval.outcome': 'approved',
      'mcp_warden.decision': 'allow',
      'mcp_warden.principal': 'alice',
    });
    expect(wait.status.code).toBe(SpanStatusCode.UNSET);
    // The question carried the wait's context, so the client's handling can join the trace.
    const { traceId, spanId } = wait.spanContext();
    expect(elicitedMeta).toEqual([{ traceparent: `00-${traceId}-${spanId}-01` }]);
    // The handler's own span nests under the request span, after the wait.
    const work = children.find((span) => span.name === 'drop rows')!;
    expect(work).toBeDefined();
    // Spans are exported as they end: the wait, then the handler's work, then the request.
    const ended = tracing.spans();
    expect(ended.indexOf(wait)).toBeLessThan(ended.indexOf(work));
    expect(ended.indexOf(work)).toBeLessThan(ended.indexOf(server));
  });

  it('ends a declined approval with its outcome, and the call as a tool_error', async () => {
    answer.current = { action: 'decline' };
    const result = await client.callTool({ name: 'drop_table', arguments: {} });
    expect(result.isError).toBe(true);

    const server = await finished('tools/call drop_table');
    // No trace context in _meta: a root span of its own.
    expect(server.parentSpanContext).toBeUndefined();
    expect(server.attributes['error.type']).toBe('tool_error');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    const wait = childrenOf(server).find((span) => span.name === 'elicitation/create')!;
    expect(wait.attributes).toMatchObject({
      'mcp_warden.approval.outcome': 'user declined',
      'mcp_warden.decision': 'deny',
    });
    // The user's "no" is an answer, not a failed operation.
    expect(wait.attributes['error.type']).toBeUndefined();
    expect(decisions(server).map((event) => event['mcp_warden.decision'])).toEqual(['ask', 'deny']);
  });

  it('records a denied tool with the deny reason and error.type tool_error', async () => {
    const caller = clientSpan('agent calls wipe');
    const result = await client.callTool({ name: 'wipe', arguments: {}, _meta: caller.meta });
    expect(result.isError).toBe(true);

    // `wipe` is not registered: the span says `_unknown`, the decision event the name asked for.
    const server = await finished('tools/call _unknown');
    expect(server.spanContext().traceId).toBe(caller.context.traceId);
    expect(server.attributes['error.type']).toBe('tool_error');
    expect(decisions(server)).toEqual([
      {
        'mcp_warden.seam': 'tool',
        'mcp_warden.decision': 'deny',
        'mcp_warden.name': 'wipe',
        'mcp_warden.reason': 'not_in_policy',
        'mcp_warden.principal': 'alice',
      },
    ]);
    expect(childrenOf(server)).toEqual([]);
  });

  it('records a read denial with its JSON-RPC code as error.type and the message as status', async () => {
    await expect(client.listPrompts()).rejects.toThrow(/authorization_required/);

    const server = await finished('prompts/list');
    expect(server.attributes).toMatchObject({
      'mcp.method.name': 'prompts/list',
      'error.type': '-31403',
      'rpc.response.status_code': '-31403',
    });
    expect(server.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'authorization_required: prompts/list',
    });
    expect(decisions(server)).toEqual([
      expect.objectContaining({
        'mcp_warden.seam': 'read',
        'mcp_warden.decision': 'deny',
        'mcp_warden.reason': 'no_prompts_here',
      }),
    ]);
  });

  it('names a span by its method alone when there is no tool or prompt, and a made-up tool name is _unknown', async () => {
    await client.listTools();
    const list = await finished('tools/list');
    expect(list.attributes['gen_ai.tool.name']).toBeUndefined();
    expect(decisions(list)[0]).toMatchObject({ 'mcp_warden.decision': 'allow' });

    const unknown = () => tracing.spans().filter((s) => s.name === 'tools/call _unknown');
    const before = unknown().length;
    await client.callTool({ name: 'x'.repeat(5_000), arguments: {} });
    await until(() => unknown().length === before + 1, 'the made-up call is traced');
    expect(unknown()[before].attributes['gen_ai.tool.name']).toBe('_unknown');
    expect(tracing.spans().some((s) => s.name.startsWith('tools/call x'))).toBe(false);
  });

  it('ignores trace context that is not a string, and survives a malformed traceparent', async () => {
    await client.callTool({
      name: 'echo',
      arguments: { text: 'hi' },
      _meta: { traceparent: { evil: true }, tracestate: 42 } as never,
    });
    await client.callTool({
      name: 'echo',
      arguments: { text: 'again' },
      _meta: { traceparent: '00-zz-not-a-trace-id' },
    });
    await until(
      () => tracing.spans().filter((s) => s.name === 'tools/call echo').length === 2,
      '2',
    );
    for (const span of tracing.spans().filter((s) => s.name === 'tools/call echo')) {
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.attributes['error.type']).toBeUndefined();
    }
  });
});
