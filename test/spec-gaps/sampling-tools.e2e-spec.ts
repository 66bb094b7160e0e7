import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  type CallToolResult,
  type CreateMessageRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { GAPS_OPTIONS, GAPS_PROVIDERS, connectAs, sdkClient } from './spec-gaps-app.js';

/*
 * Tool use in sampling (spec 2025-11-25): `ctx.sample()` with `tools` or
 * `toolChoice` goes only to a client that declared `sampling.tools`; any other
 * gets a clear tool error and no request at all.
 */

describe.each(ADAPTERS)('sampling with tools on %s', (adapter) => {
  let t: HttpTestApp;
  const clients: Client[] = [];
  const sampled: CreateMessageRequest[] = [];

  beforeAll(async () => {
    t = await createHttpApp(GAPS_OPTIONS, GAPS_PROVIDERS, adapter);
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await t?.close();
  });

  beforeEach(() => (sampled.length = 0));

  async function connect(sampling: object): Promise<Client> {
    const client = sdkClient({ sampling });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      sampled.push(request);
      return {
        role: 'assistant',
        model: 'jest-model',
        stopReason: 'toolUse',
        content: [{ type: 'tool_use', id: 'call-1', name: 'search', input: { q: 'Q3 plan' } }],
      };
    });
    clients.push(client);
    return connectAs(client, t, 'alice');
  }

  it('sends tools and toolChoice to a client that declared sampling.tools', async () => {
    const client = await connect({ tools: {} });
    const result = (await client.callTool({ name: 'plan', arguments: {} })) as CallToolResult;
    expect(sampled).toHaveLength(1);
    expect(sampled[0].params).toMatchObject({
      tools: [{ name: 'search', inputSchema: { type: 'object', properties: {} } }],
      toolChoice: { mode: 'auto' },
    });
    expect(result.structuredContent).toEqual({
      stopReason: 'toolUse',
      blocks: [{ type: 'tool_use', id: 'call-1', name: 'search', input: { q: 'Q3 plan' } }],
    });
  });

  it('refuses a client that declared sampling without tools, sending nothing', async () => {
    const client = await connect({});
    const result = (await client.callTool({ name: 'plan', arguments: {} })) as CallToolResult;
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'The client did not declare tool use in sampling (sampling.tools)' },
      ],
      isError: true,
    });
    expect(sampled).toEqual([]);
  });
});
