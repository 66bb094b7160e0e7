// The official SDK 1.x server over Streamable HTTP (stateful sessions, the SDK's defaults, Express
// app from createMcpExpressApp), exposing `echo`. Prints its URL on stdout. PORT=0 picks a port.
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { buildSdk1Server } from './sdk1-app.mjs';

const transports = new Map();
const app = createMcpExpressApp();

app.post('/mcp', async (req, res) => {
  const id = req.headers['mcp-session-id'];
  let transport = id ? transports.get(id) : undefined;
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => transports.set(sid, transport),
    });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await buildSdk1Server().connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});
const other = async (req, res) => {
  const transport = transports.get(req.headers['mcp-session-id']);
  if (!transport) return res.status(404).end();
  await transport.handleRequest(req, res);
};
app.get('/mcp', other);
app.delete('/mcp', other);

const listener = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${listener.address().port}/mcp\n`);
});
process.on('SIGTERM', () => process.exit(0));
