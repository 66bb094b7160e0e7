import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import {
  DataPointType,
  type DataPoint,
  type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { McpTool, type Authorizer } from '../../src/index.js';
import { deferred } from '../support/deferred.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import { registerMetrics } from './otel-harness.js';

/*
 * Metrics of real calls from the official SDK client (1.x) over Streamable
 * HTTP, read through the real OpenTelemetry metrics SDK: the conventions'
 * duration histograms, the seam counters and the live-count gauges.
 */

const meters = registerMetrics();

@Injectable()
class MeteredTools {
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
    return 'table dropped';
  }
}

const toolPolicy: Authorizer = (name) =>
  name === 'echo'
    ? { kind: 'allow' }
    : name === 'drop_table'
      ? { kind: 'ask', prompt: 'Drop the table?' }
      : { kind: 'deny', reason: 'not_in_policy' };

let t: HttpTestApp;
let client: Client;
let transport: StreamableHTTPClientTransport;
const gate = deferred<ElicitResult>();
let asked = 0;

beforeAll(async () => {
  t = await createHttpApp(
    {
      authorizer: toolPolicy,
      authorizerSource: 'configured',
      readAuthorizer: () => ({ kind: 'allow' }),
    },
    [MeteredTools],
  );
  client = new Client(
    { name: 'jest-metrics', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  client.setRequestHandler(ElicitRequestSchema, () => {
    asked++;
    return gate.promise;
  });
  transport = new StreamableHTTPClientTransport(new URL(t.url));
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await t?.close();
  await meters.dispose();
});

function points(metric: MetricData | undefined): DataPoint<unknown>[] {
  return (metric?.dataPoints ?? []) as DataPoint<unknown>[];
}

/** The one data point whose attributes include `attributes` (and only it). */
function pointWith(metric: MetricData | undefined, attributes: Record<string, unknown>) {
  const found = points(metric).filter((point) =>
    Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
  );
  expect(found).toHaveLength(1);
  return found[0];
}

const gaugeValue = (metric: MetricData | undefined) => points(metric)[0]?.value;

describe('MCP server metrics (OpenTelemetry conventions for MCP)', () => {
  it('counts calls, seam decisions and approvals, and shows a parked approval on the gauges', async () => {
    for (const text of ['a', 'b', 'c'])
      await client.callTool({ name: 'echo', arguments: { text } });
    await client.callTool({ name: 'wipe', arguments: {} });
    await client.listTools();

    // Park one approval and read the gauges while it waits.
    const call = client.callTool({ name: 'drop_table', arguments: {} });
    await until(() => asked === 1, 'the approval was asked');
    const parked = await meters.collect();
    expect(gaugeValue(parked.get('mcp_warden.approvals.parked'))).toBe(1);
    expect(gaugeValue(parked.get('mcp_warden.client_requests.pending'))).toBe(1);
    expect(gaugeValue(parked.get('mcp_warden.requests.in_flight'))).toBe(1);
    expect(gaugeValue(parked.get('mcp_warden.connections'))).toBe(1);
    expect(parked.get('mcp_warden.approvals.parked')?.dataPointType).toBe(DataPointType.GAUGE);
    gate.resolve({ action: 'accept', content: { approve: true } });
    expect((await call).isError).toBeFalsy();

    let after = await meters.collect();
    await until(() => gaugeValue(after.get('mcp_warden.approvals.parked')) === 0, 'released');
    after = await meters.collect();
    expect(gaugeValue(after.get('mcp_warden.approvals.parked'))).toBe(0);
    expect(gaugeValue(after.get('mcp_warden.requests.in_flight'))).toBe(0);
    expect(gaugeValue(after.get('mcp_warden.client_requests.pending'))).toBe(0);

    const duration = after.get('mcp.server.operation.duration')!;
    expect(duration.descriptor.unit).toBe('s');
    expect(duration.dataPointType).toBe(DataPointType.HISTOGRAM);
    const echo = pointWith(duration, { 'gen_ai.tool.name': 'echo' }) as DataPoint<Histogram>;
    expect(echo.attributes).toEqual({
      'mcp.server.name': 'http-test',
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
    });
    expect(echo.value.count).toBe(3);
    expect(echo.value.buckets.boundaries).toEqual([
      0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
    ]);
    // No request ids, session ids or URIs on a metric: its cardinality stays low.
    for (const point of points(duration)) {
      expect(Object.keys(point.attributes)).not.toEqual(
        expect.arrayContaining(['jsonrpc.request.id']),
      );
      expect(point.attributes['mcp.session.id']).toBeUndefined();
    }
    // `wipe` is not registered: its series is the one every made-up name shares.
    const wipe = pointWith(duration, { 'gen_ai.tool.name': '_unknown' }) as DataPoint<Histogram>;
    expect(wipe.attributes['error.type']).toBe('tool_error');
    // The approved call's duration covers the wait for the user.
    const drop = pointWith(duration, { 'gen_ai.tool.name': 'drop_table' }) as DataPoint<Histogram>;
    expect(drop.value.count).toBe(1);
    expect(drop.attributes['error.type']).toBeUndefined();
    const init = pointWith(duration, { 'mcp.method.name': 'initialize' }) as DataPoint<Histogram>;
    expect(init.attributes['mcp.protocol.version']).toBe('2025-11-25');

    const decisions = after.get('mcp_warden.seam.decisions')!;
    const count = (seam: string, decision: string) =>
      pointWith(decisions, { 'mcp_warden.seam': seam, 'mcp_warden.decision': decision }).value;
    expect(count('tool', 'allow')).toBe(3);
    expect(count('tool', 'deny')).toBe(1);
    expect(count('tool', 'ask')).toBe(1);
    expect(count('read', 'allow')).toBe(1);
    const approvals = after.get('mcp_warden.approval.outcomes')!;
    expect(pointWith(approvals, { 'mcp_warden.decision': 'allow' }).value).toBe(1);
  });

  it('records the session duration when the session ends', async () => {
    const before = await meters.collect();
    expect(points(before.get('mcp.server.session.duration'))).toEqual([]);
    await transport.terminateSession();
    const after = await meters.collect();
    const session = after.get('mcp.server.session.duration')!;
    expect(session.descriptor.unit).toBe('s');
    const point = pointWith(session, { 'network.transport': 'tcp' }) as DataPoint<Histogram>;
    expect(point.attributes).toEqual({
      'mcp.server.name': 'http-test',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
    });
    expect(point.value.count).toBe(1);
    expect(point.value.sum).toBeGreaterThan(0);
  });
});
