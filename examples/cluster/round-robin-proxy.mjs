// A small round-robin HTTP proxy, the load balancer of the cluster example and tests: each
// request goes to the next backend, with no stickiness, its response streamed back as it
// comes (SSE included). A backend that refuses the connection is skipped for the next one.
import { Agent, createServer, request } from 'node:http';

/** Request bodies past this are refused (413); an MCP body is bounded well below it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * Starts the proxy on 127.0.0.1:`port` (0 picks one) in front of `backends`
 * (base URLs such as http://127.0.0.1:3001). Resolves to { url, served, steer, close }:
 * `served` lists every request answered ({ backend, method, rpc }: the backend index, the
 * HTTP method, and the JSON-RPC method or 'response' of a POST), in order; `steer(i)`
 * sends the next request to backend i (the rotation goes on from there).
 */
export async function startRoundRobinProxy(backends, port = 0) {
  let next = 0;
  const served = [];
  const open = new Set();
  // Its own keep-alive pool, so that closing the proxy closes every socket it opened.
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => forward(req, res, Buffer.concat(chunks), backends.length));
  });

  function forward(req, res, body, tries) {
    const index = next++ % backends.length;
    const rpc = rpcOf(body);
    const target = new URL(req.url, backends[index]);
    const upstream = request(
      target,
      { method: req.method, agent, headers: { ...req.headers, 'content-length': body.length } },
      (answer) => {
        served.push({ backend: index, method: req.method, rpc });
        res.writeHead(answer.statusCode, answer.headers);
        res.flushHeaders();
        answer.pipe(res);
        // A backend that dies mid-stream ends the client's response too.
        answer.on('error', () => res.destroy());
        answer.on('aborted', () => res.destroy());
      },
    );
    open.add(upstream);
    upstream.once('close', () => open.delete(upstream));
    upstream.on('error', (error) => {
      if (res.headersSent) return res.destroy();
      if (error.code === 'ECONNREFUSED' && tries > 1) return forward(req, res, body, tries - 1);
      res.writeHead(502).end();
    });
    res.once('close', () => upstream.destroy());
    upstream.end(body);
  }

  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    served,
    steer: (index) => {
      next = index;
    },
    close: () =>
      new Promise((resolve) => {
        for (const upstream of open) upstream.destroy();
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The JSON-RPC method of a body (or 'response'), for the log. */
function rpcOf(body) {
  try {
    const message = JSON.parse(body.toString('utf8'));
    return typeof message?.method === 'string' ? message.method : 'response';
  } catch {
    return undefined;
  }
}
