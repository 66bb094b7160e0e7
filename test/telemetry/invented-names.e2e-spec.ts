import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EmptyResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { DataPoint, MetricData } from '@opentelemetry/sdk-metrics';
import { Authorizers, McpPrompt, McpTool } from '../../src/index.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { registerMetrics } from './otel-harness.js';

/*
 * A client chooses the tool, prompt and method names it sends. Names the
 * server did not register are one label value each (`_unknown`, `_OTHER`), so
 * made-up names cannot grow the metric series (issue 24, finding 9: 3 000
 * invented names made 2 001 series and pushed real tools into overflow).
 */

const meters = registerMetrics();

@Injectable()
class TwoTools {
  @McpTool({ description: 'Echo the text back' })
  echo() {
    return 'echo';
  }

  @McpTool({ description: 'Count the notes' })
  count_notes() {
    return '3';
  }

  @McpPrompt({ description: 'Summarise' })
  summary() {
    return 'Summarise the notes.';
  }
}

/** Tools the app registers (the bound on tool series is this plus one). */
const REGISTERED_TOOLS = 2;
/** Invented names per round; the 3 000 made 2 001 series, a few hundred show the same. */
const INVENTED = 150;

let t: HttpTestApp;
let client: Client;

beforeAll(async () => {
  t = await createHttpApp(
    {
      authorizer: Authorizers.allowAll(),
      authorizerSource: 'configured',
      readAuthorizer: Authorizers.allowAll(),
    },
    [TwoTools],
  );
  client = new Client({ name: 'jest-invented', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
});

afterAll(async () => {
  await client?.close();
  await t?.close();
  await meters.dispose();
});

/** Sends `count` calls, prompts and requests under names nobody registered. */
async function invent(round: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await client.callTool({ name: `made-up-${round}-${i}`, arguments: {} }).catch(() => undefined);
    await client.getPrompt({ name: `prompt-${round}-${i}` }).catch(() => undefined);
    await client
      .request({ method: `made/up-${round}-${i}` } as never, EmptyResultSchema)
      .catch(() => undefined);
  }
}

async function durationPoints(): Promise<DataPoint<unknown>[]> {
  const metric: MetricData | undefined = (await meters.collect()).get(
    'mcp.server.operation.duration',
  );
  return (metric?.dataPoints ?? []) as DataPoint<unknown>[];
}

describe('metric series under invented names', () => {
  it('tools/call series stay within the registered tools plus one, and more invented names add none', async () => {
    await client.callTool({ name: 'echo', arguments: {} });
    await client.callTool({ name: 'count_notes', arguments: {} });
    await invent('a', INVENTED);
    const first = await durationPoints();
    const toolSeries = first.filter(
      (point) => point.attributes['mcp.method.name'] === 'tools/call',
    );
    expect(toolSeries.length).toBeLessThanOrEqual(REGISTERED_TOOLS + 1);
    const toolNames = new Set(toolSeries.map((point) => point.attributes['gen_ai.tool.name']));
    expect(toolNames).toEqual(new Set(['echo', 'count_notes', '_unknown']));
    const prompts = first.filter((point) => point.attributes['mcp.method.name'] === 'prompts/get');
    expect(new Set(prompts.map((point) => point.attributes['gen_ai.prompt.name']))).toEqual(
      new Set(['_unknown']),
    );
    expect(first.filter((point) => point.attributes['mcp.method.name'] === '_OTHER')).toHaveLength(
      1,
    );
    // The real tools keep their own series, never the SDK's overflow.
    for (const point of first) {
      expect(point.attributes['otel.metric.overflow']).toBeUndefined();
    }

    await invent('b', INVENTED);
    const second = await durationPoints();
    expect(second.length).toBe(first.length);
  });
});
