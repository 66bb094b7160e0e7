// A lean keep-alive HTTP load driver for MCP Streamable HTTP endpoints.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One POST; resolves with { status, headers, body } (SSE bodies are reduced to their last data line). */
export function post(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const data = Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': data.length,
          ...headers,
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          let text = Buffer.concat(chunks).toString('utf8');
          if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
            const lines = text.split('\n').filter((l) => l.startsWith('data: ') && l.length > 6);
            text = lines.length ? lines[lines.length - 1].slice(6) : '';
          }
          resolve({
            status: res.statusCode,
            headers: res.headers,
            body: text ? JSON.parse(text) : null,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/** initialize + initialized; returns the headers later requests need. */
export async function openSession(url) {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'load', version: '1' },
    },
  });
  const headers = { 'mcp-protocol-version': '2025-11-25' };
  if (init.headers['mcp-session-id']) headers['mcp-session-id'] = init.headers['mcp-session-id'];
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return headers;
}

/** `total` tools/call echo with `inFlight` concurrent; returns calls per second. */
export async function echoThroughput(url, headers, total, inFlight) {
  let next = 0;
  let failures = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < total) {
      const id = ++next;
      const res = await post(
        url,
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'hi' } },
        },
        headers,
      );
      if (res.body?.result?.content?.[0]?.text !== 'hi') failures++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (failures) throw new Error(`${failures} calls failed`);
  return total / seconds;
}
