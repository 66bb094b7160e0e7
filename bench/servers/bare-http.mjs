// The physical baseline: a bare node:http JSON-RPC responder. It does the least any stateful
// Streamable HTTP server must: mint a session id at initialize and keep one Map entry per session,
// answer tools/call echo with JSON, hold a GET open as an SSE stream, and for `guarded_echo` send
// elicitation/create on the call's SSE stream and answer once the client's response is POSTed.
// Prints its URL on stdout. PORT=0 picks a free port.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

const sessions = new Map();
const parked = new Map(); // elicitation request id -> the call waiting for its answer
let nextElicitation = 0;

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const text = (value) => ({ content: [{ type: 'text', text: value }] });
const send = (res, status, body, headers = {}) => {
  const data = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(data),
    ...headers,
  });
  res.end(data);
};

function post(req, res, msg) {
  if (msg.method === 'initialize') {
    const id = randomBytes(24).toString('base64url');
    sessions.set(id, { streams: 0 });
    return send(
      res,
      200,
      {
        jsonrpc: '2.0',
        id: msg.id,
        result: {
          protocolVersion: '2025-11-25',
          capabilities: { tools: {} },
          serverInfo: { name: 'bare', version: '1' },
        },
      },
      { 'mcp-session-id': id },
    );
  }
  if (!sessions.has(req.headers['mcp-session-id'])) return send(res, 404, { error: 'session' });
  if (msg.method === undefined && parked.has(msg.id)) {
    // The client's answer to our elicitation/create: finish the parked call on its stream.
    const call = parked.get(msg.id);
    parked.delete(msg.id);
    res.writeHead(202).end();
    const ok = msg.result?.action === 'accept' && msg.result.content?.approve === true;
    const result = ok ? text(call.text) : { ...text('not approved'), isError: true };
    call.res.end(
      `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: call.id, result })}\n\n`,
    );
    return;
  }
  if (msg.id === undefined || msg.method === undefined) return res.writeHead(202).end();
  if (msg.method === 'tools/call' && msg.params.name === 'guarded_echo') {
    const id = `e${++nextElicitation}`;
    parked.set(id, { res, id: msg.id, text: msg.params.arguments.text });
    res.writeHead(200, SSE_HEADERS);
    const ask = {
      jsonrpc: '2.0',
      id,
      method: 'elicitation/create',
      params: {
        message: 'Echo?',
        requestedSchema: { type: 'object', properties: { approve: { type: 'boolean' } } },
      },
    };
    res.write(`event: message\ndata: ${JSON.stringify(ask)}\n\n`);
    return;
  }
  const result = msg.method === 'tools/call' ? text(msg.params.arguments.text) : {};
  send(res, 200, { jsonrpc: '2.0', id: msg.id, result });
}

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    const session = sessions.get(req.headers['mcp-session-id']);
    if (!session) return send(res, 404, { error: 'session' });
    session.streams++;
    res.writeHead(200, SSE_HEADERS);
    res.write(': open\n\n');
    res.once('close', () => session.streams--);
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => post(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8'))));
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}/mcp\n`);
});
process.on('SIGTERM', () => process.exit(0));
