// Heap cost of parked calls: N calls parked behind elicitation/create, spread
// over connections of 64 (the per-connection bound). Run: node --expose-gc bench/parked-memory.mjs [N]
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpRegistry, McpServer } from '../dist/index.js';

const total = Number(process.argv[2] ?? 10_000);
const perConnection = 64;
const app = await NestFactory.createApplicationContext(
  McpModule.forRoot({
    name: 'bench',
    version: '1',
    authorizer: () => ({ kind: 'ask', prompt: 'Run it?' }),
    elicitationTimeoutMs: 600_000,
  }),
  { logger: false },
);
app.get(McpRegistry).registerTool({
  name: 'work',
  description: 'Parked work',
  inputSchema: { type: 'object' },
  handler: () => 'done',
});
const server = app.get(McpServer);
const init = {
  protocolVersion: '2025-11-25',
  capabilities: { elicitation: {} },
  clientInfo: { name: 'b', version: '1' },
};

const connections = Math.ceil(total / perConnection);
const subs = [];
let prompts = 0;
for (let c = 0; c < connections; c++) {
  subs.push(server.subscribe(`c${c}`).subscribe(() => prompts++));
  await server.handleMessage(
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: init },
    `c${c}`,
  );
}
globalThis.gc?.();
const before = process.memoryUsage().heapUsed;
let parked = 0;
for (let i = 0; i < total; i++) {
  const reply = await server.handleMessage(
    { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'work', arguments: { i } } },
    `c${i % connections}`,
  );
  if (reply === null) parked++;
}
globalThis.gc?.();
const after = process.memoryUsage().heapUsed;
console.log(
  `${parked} parked calls over ${connections} connections (${prompts} prompts sent): ` +
    `${((after - before) / 1024 / 1024).toFixed(1)} MiB heap, ${Math.round((after - before) / parked)} B per parked call`,
);
for (const sub of subs) sub.unsubscribe();
await app.close();
