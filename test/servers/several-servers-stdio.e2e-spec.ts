import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { resolve } from 'node:path';

/*
 * Two servers in one app, one of them on stdio (docs/several-servers.md): the official SDK
 * clients, in both eras, reach only the stdio server's tools and decisions. A child process on
 * the built framework (test/fixtures/several-servers/stdio-app.mjs).
 */

const APP = resolve(process.cwd(), 'test/fixtures/several-servers/stdio-app.mjs');
const child = () => ({
  command: process.execPath,
  args: [APP],
  env: { ...process.env, NODE_OPTIONS: '' } as Record<string, string>,
  stderr: 'ignore' as const,
});
const APPROVE = { action: 'accept', content: { approve: true } } as const;
const text = (result: unknown) =>
  (result as { content: { text: string }[] }).content.map((part) => part.text).join('');

describe('several servers, one on stdio (SDK v1, 2025-11-25)', () => {
  let client: Client;
  const asked: string[] = [];

  beforeAll(async () => {
    client = new Client(
      { name: 'jest-v1', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return APPROVE;
    });
    await client.connect(new StdioClientTransport(child()));
  });
  afterAll(() => client.close());

  it('serves the server that declares stdio, with its own tools only', async () => {
    expect(client.getServerVersion()).toEqual({ name: 'local', version: '1.0.0' });
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'status',
      'wipe',
    ]);
    await expect(client.callTool({ name: 'remote_only', arguments: {} })).rejects.toThrow(
      /Unknown tool: remote_only/,
    );
  });

  it("the stdio server's own authorizer decides; the other's policy never does", async () => {
    expect(text(await client.callTool({ name: 'wipe', arguments: {} }))).toBe('local wiped');
    expect(asked).toEqual(['Wipe locally?']);
  });
});

describe('several servers, one on stdio (SDK v2, pinned to 2026-07-28)', () => {
  let client: ClientV2;

  beforeAll(async () => {
    client = new ClientV2(
      { name: 'jest-v2', version: '2.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => APPROVE);
    await client.connect(new StdioV2(child()));
  });
  afterAll(() => client.close());

  it('discovers the stdio server and reaches only its tools and decisions', async () => {
    expect(client.getServerVersion()).toEqual({ name: 'local', version: '1.0.0' });
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      'status',
      'wipe',
    ]);
    await expect(client.callTool({ name: 'remote_only', arguments: {} })).rejects.toThrow(
      /remote_only/,
    );
    // The approval round of the modern era, answered by the client: local asks, remote forbids.
    expect(text(await client.callTool({ name: 'wipe', arguments: {} }))).toBe('local wiped');
  });
});
