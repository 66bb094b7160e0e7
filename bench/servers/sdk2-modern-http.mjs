// The official SDK 2.x server on its 2026-07-28 entry: createMcpHandler (@modelcontextprotocol/server)
// with a per-request McpServer factory, wrapped for node:http by toNodeHandler
// (@modelcontextprotocol/node), behind the SDK's localhost Host/Origin guards. Modern requests
// are served statelessly (one fresh instance per request); 2025-era traffic gets the SDK's
// default stateless fallback. Prints its URL on stdout. PORT=0 picks a free port.
import { createServer } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { buildSdk2Server } from './sdk2-app.mjs';

const handler = createMcpHandler(() => buildSdk2Server());
const serve = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const server = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  void serve(req, res);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`);
});
process.on('SIGTERM', () => handler.close().finally(() => process.exit(0)));
