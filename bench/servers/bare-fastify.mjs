// The Fastify ceiling: a plain Fastify app answering the same JSON-RPC as bare-http.mjs on one
// JSON route (Fastify parses the body and serializes the reply), with no Nest and no MCP
// framework: what the Warden Fastify row is compared against. It mints a session id at
// initialize and answers tools/call echo; it runs only in the HTTP throughput workload. Prints
// its URL on stdout. PORT=0 picks a free port.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';

const sessions = new Set();
const app = Fastify({ logger: false });

app.post('/mcp', async (request, reply) => {
  const msg = request.body;
  if (msg.method === 'initialize') {
    const id = randomBytes(24).toString('base64url');
    sessions.add(id);
    reply.header('mcp-session-id', id);
    return {
      jsonrpc: '2.0',
      id: msg.id,
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'bare-fastify', version: '1' },
      },
    };
  }
  if (!sessions.has(request.headers['mcp-session-id'])) {
    return reply.code(404).send({ error: 'session' });
  }
  if (msg.id === undefined || msg.method === undefined) return reply.code(202).send();
  const text = msg.method === 'tools/call' ? msg.params.arguments.text : undefined;
  const result = text === undefined ? {} : { content: [{ type: 'text', text }] };
  return { jsonrpc: '2.0', id: msg.id, result };
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`http://127.0.0.1:${app.server.address().port}/mcp\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
