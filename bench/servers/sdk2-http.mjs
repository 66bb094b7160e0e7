// The official SDK 2.x server over Streamable HTTP: NodeStreamableHTTPServerTransport from
// @modelcontextprotocol/node on plain node:http with the SDK's localhost Host/Origin guards (its
// README's recipe), stateful sessions. Prints its URL on stdout. PORT=0 picks a free port.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
  NodeStreamableHTTPServerTransport,
  localhostHostValidation,
  localhostOriginValidation,
} from '@modelcontextprotocol/node';
import { buildSdk2Server } from './sdk2-app.mjs';

const transports = new Map();
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const server = createServer(async (req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  const id = req.headers['mcp-session-id'];
  let transport = typeof id === 'string' ? transports.get(id) : undefined;
  if (!transport) {
    if (req.method !== 'POST' || id) return res.writeHead(404).end();
    // No session id: only an initialize can succeed; the transport answers anything else 400.
    transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => transports.set(sid, transport),
    });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await buildSdk2Server().connect(transport);
  }
  await transport.handleRequest(req, res);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`);
});
process.on('SIGTERM', () => process.exit(0));
