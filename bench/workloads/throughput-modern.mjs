// tools/call throughput in the 2026-07-28 era over Streamable HTTP: no initialize and no session,
// every call one stateless POST carrying its own envelope (`params._meta` with the protocol
// version and the client's capabilities) and the MCP-Protocol-Version / Mcp-Method / Mcp-Name
// headers, 32 in flight on 32 raw keep-alive connections. Measured against MCP Warden, against
// the official SDK 2.x server's 2026-07-28 entry (createMcpHandler), and, for the era's own cost,
// against the same Warden server driven in the 2025-11-25 era (one session, as throughput-http).
import { callTool } from '../lib/mcp-http.mjs';
import { modernCall } from '../lib/mcp.mjs';
import { drive, driveMeasured } from '../lib/measure.mjs';
import { RawHttpConnection } from '../lib/raw-http.mjs';
import { throughputHttp } from './throughput.mjs';

const IN_FLIGHT = 32;

async function runModern(server, sizes) {
  const call = modernCall(server.call);
  // The routing headers are the same on every request: sent as the connection's fixed headers.
  const connections = await Promise.all(
    Array.from({ length: IN_FLIGHT }, () =>
      RawHttpConnection.open(server.url, { headers: { ...call.headers, ...server.headers } }),
    ),
  );
  try {
    let id = 0;
    // Every answer is checked (callTool throws on anything but a complete, error-free echo).
    const step = (worker) => callTool(connections[worker], undefined, call, ++id);
    await drive({ workers: IN_FLIGHT, ...sizes.warmup, step });
    return await driveMeasured(server, { workers: IN_FLIGHT, ...sizes.throughput, step });
  } finally {
    for (const connection of connections) connection.close();
  }
}

export const throughputHttpModern = {
  id: 'throughput-http-modern',
  title: `tools/call throughput, 2026-07-28 era, ${IN_FLIGHT} in flight, Streamable HTTP (${IN_FLIGHT} keep-alive connections, a stateless POST per call)`,
  transport: 'http',
  servers: ['warden-modern-http', 'sdk2-modern-http', 'warden-http'],
  // The handshake-era row is the same Warden server as the modern one, driven as throughput-http.
  labels: { 'warden-http': 'mcp-warden (2025-11-25, one session)' },
  baselines: ['sdk2-modern-http', 'warden-http'],
  metrics: throughputHttp.metrics,
  run: (server, sizes) =>
    server.era === 'modern' ? runModern(server, sizes) : throughputHttp.run(server, sizes),
};
