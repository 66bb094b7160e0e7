// tools/call throughput with 32 calls in flight: over HTTP on 32 raw keep-alive connections
// (one request in flight on each) sharing one session, over stdio pipelined on the one pipe.
import { callTool, openSession } from '../lib/mcp-http.mjs';
import { drive, driveMeasured } from '../lib/measure.mjs';
import { RawHttpConnection } from '../lib/raw-http.mjs';

const IN_FLIGHT = 32;
const metrics = [
  { key: 'rate', label: 'calls/s', unit: '/s' },
  { key: 'serverCpu', label: 'server CPU (µs/call)', unit: 'µs', ratio: false },
  { key: 'driverCpu', label: 'driver CPU (% of a core)', unit: '%', ratio: false },
];

async function measure(server, step, sizes) {
  await drive({ workers: IN_FLIGHT, ...sizes.warmup, step });
  return driveMeasured(server, { workers: IN_FLIGHT, ...sizes.throughput, step });
}

export const throughputHttp = {
  id: 'throughput-http',
  title: `tools/call throughput, ${IN_FLIGHT} in flight, Streamable HTTP (${IN_FLIGHT} keep-alive connections, one session)`,
  transport: 'http',
  metrics,
  async run(server, sizes) {
    const connections = await Promise.all(
      Array.from({ length: IN_FLIGHT }, () => RawHttpConnection.open(server.url)),
    );
    try {
      const headers = await openSession(connections[0]);
      let id = 0;
      return await measure(
        server,
        (worker) => callTool(connections[worker], headers, server.call, ++id),
        sizes,
      );
    } finally {
      for (const connection of connections) connection.close();
    }
  },
};

export const throughputStdio = {
  id: 'throughput-stdio',
  title: `tools/call throughput, ${IN_FLIGHT} pipelined, stdio`,
  transport: 'stdio',
  metrics,
  async run(server, sizes) {
    const client = await server.stdio();
    return measure(server, () => client.callTool(server.call), sizes);
  },
};
