// Session setup rate over Streamable HTTP: initialize + notifications/initialized + one
// tools/call, a new session each time, several clients in parallel (each on its own keep-alive
// connection). Sessions are not ended: like most clients, they just go away.
import { callTool, openSession } from '../lib/mcp-http.mjs';
import { drive, driveMeasured } from '../lib/measure.mjs';
import { RawHttpConnection } from '../lib/raw-http.mjs';

const PARALLEL = 8;

export const setupHttp = {
  id: 'setup-http',
  title: `Session setup (initialize + initialized + one tools/call), ${PARALLEL} in parallel, Streamable HTTP`,
  transport: 'http',
  needsSessions: true,
  metrics: [
    { key: 'rate', label: 'sessions/s', unit: '/s' },
    { key: 'serverCpu', label: 'server CPU (µs/session)', unit: 'µs', ratio: false },
    { key: 'driverCpu', label: 'driver CPU (% of a core)', unit: '%', ratio: false },
  ],
  async run(server, sizes) {
    const connections = await Promise.all(
      Array.from({ length: PARALLEL }, () => RawHttpConnection.open(server.url)),
    );
    try {
      const step = async (worker) => {
        const headers = await openSession(connections[worker]);
        await callTool(connections[worker], headers, server.call, 1);
      };
      await drive({ workers: PARALLEL, ...sizes.warmup, step });
      return await driveMeasured(server, { workers: PARALLEL, ...sizes.setup, step });
    } finally {
      for (const connection of connections) connection.close();
    }
  },
};
