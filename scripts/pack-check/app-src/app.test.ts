import 'reflect-metadata';
import { deepStrictEqual, strictEqual } from 'node:assert';
import { test } from 'node:test';
import { Test } from '@nestjs/testing';
import { McpModule, McpWarden } from 'mcp-warden';
import { McpTestClient } from 'mcp-warden/testing';
import { AddTools } from './add.tools.js';
import { MCP_OPTIONS } from './app.module.js';

interface CallReply {
  result: { isError?: boolean; structuredContent?: unknown };
}

const call = (args: object) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'add', arguments: args },
});

/** The app's module as a test builds it: no HTTP server, the same tools and policy. */
function testingModule() {
  return Test.createTestingModule({
    imports: [McpModule.forRoot({ ...MCP_OPTIONS, transport: 'unknown' })],
    providers: [AddTools],
  }).compile();
}

test('a testing module serves tools/call through McpWarden.handleMessage', async () => {
  const app = await (await testingModule()).init();
  try {
    const server = app.get(McpWarden);
    const ok = (await server.handleMessage(call({ a: 2, b: 3 }))) as CallReply;
    deepStrictEqual(ok.result.structuredContent, { sum: 5 });
    // The DTO's rules come from the app's class-validator: a bad argument is a tool error.
    const bad = (await server.handleMessage(call({ a: 'two', b: 3 }))) as CallReply;
    strictEqual(bad.result.isError, true);
  } finally {
    await app.close();
  }
});

test('McpTestClient from mcp-warden/testing lists and calls the tool', async () => {
  const app = await (await testingModule()).init();
  const client = await McpTestClient.connect(app, {
    principal: { subject: 'pack-check', scopes: [] },
  });
  try {
    const tools = await client.listTools();
    deepStrictEqual(
      tools.map((tool) => tool.name),
      ['add'],
    );
    const ok = await client.callTool('add', { a: 2, b: 3 });
    deepStrictEqual(ok.structuredContent, { sum: 5 });
    const bad = await client.callTool('add', { a: 'two', b: 3 });
    strictEqual(bad.isError, true);
  } finally {
    await client.close();
    await app.close();
  }
});
