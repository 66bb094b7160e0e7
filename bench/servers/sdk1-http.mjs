// The official SDK 1.x server over Streamable HTTP (stateful sessions), exposing `echo`.
// Prints its URL on stdout. PORT=0 picks a free port.
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { z } from 'zod';

const transports = new Map();
const app = createMcpExpressApp();

function buildServer() {
  const server = new McpServer({ name: 'sdk1-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

app.post('/mcp', async (req, res) => {
  const id = req.headers['mcp-session-id'];
  let transport = id ? transports.get(id) : undefined;
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => transports.set(sid, transport),
    });
    transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
    await buildServer().connect(transport);
  }
  await transport.handleRequest(req, res, req.body);
});
const other = async (req, res) => {
  const transport = transports.get(req.headers['mcp-session-id']);
  if (!transport) return res.status(400).end();
  await transport.handleRequest(req, res);
};
app.get('/mcp', other);
app.delete('/mcp', other);

const listener = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${listener.address().port}/mcp\n`);
});
process.on('SIGTERM', () => process.exit(0));
