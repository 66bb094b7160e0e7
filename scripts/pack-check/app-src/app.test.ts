import 'reflect-metadata';
import { deepStrictEqual, strictEqual } from 'node:assert';
import { test } from 'node:test';
import { Test } from '@nestjs/testing';
import { McpModule, McpServer } from 'mcp-warden';
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

test('a testing module serves tools/call through McpServer.handleMessage', async () => {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ ...MCP_OPTIONS, transport: 'unknown' })],
    providers: [AddTools],
  }).compile();
  const app = await moduleRef.init();
  try {
    const server = app.get(McpServer);
    const ok = (await server.handleMessage(call({ a: 2, b: 3 }))) as CallReply;
    deepStrictEqual(ok.result.structuredContent, { sum: 5 });
    // The DTO's rules come from the app's class-validator: a bad argument is a tool error.
    const bad = (await server.handleMessage(call({ a: 'two', b: 3 }))) as CallReply;
    strictEqual(bad.result.isError, true);
  } finally {
    await app.close();
  }
});
