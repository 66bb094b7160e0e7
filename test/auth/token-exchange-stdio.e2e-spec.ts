import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { resolve } from 'node:path';

/*
 * On stdio there is no bearer token to exchange: `ctx.credentials.exchange()` says so, as the
 * tool's error. The official SDK client drives a child process on the built framework.
 */

const APP = resolve(process.cwd(), 'test/fixtures/token-exchange/stdio-app.mjs');

describe('token exchange over stdio', () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: 'token-exchange-stdio-e2e', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [APP],
        env: { ...process.env, NODE_OPTIONS: '' } as Record<string, string>,
        stderr: 'ignore',
      }),
    );
  });
  afterAll(() => client.close());

  it('fails the exchange with the reason: a stdio caller has no bearer token', async () => {
    const result = await client.callTool({ name: 'my_tickets', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'token exchange needs the caller’s bearer token, and a stdio caller has none',
      },
    ]);
  });
});
