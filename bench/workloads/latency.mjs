// Sequential tools/call latency: one call at a time on one session, p50 and p99 over every call.
import { callTool, openSession } from '../lib/mcp-http.mjs';
import { percentile, timeSequential } from '../lib/measure.mjs';
import { RawHttpConnection } from '../lib/raw-http.mjs';

const metrics = [
  { key: 'p50', label: 'p50 (ms)', short: 'p50', unit: 'ms' },
  { key: 'p99', label: 'p99 (ms)', short: 'p99', unit: 'ms' },
];

async function measure(step, sizes) {
  await timeSequential({ ...sizes.warmup, step });
  const samples = await timeSequential({ ...sizes.latency, step });
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

export const latencyHttp = {
  id: 'latency-http',
  title: 'Sequential tools/call latency, Streamable HTTP (one keep-alive connection, one session)',
  transport: 'http',
  metrics,
  async run(server, sizes) {
    const connection = await RawHttpConnection.open(server.url);
    try {
      const headers = await openSession(connection);
      let id = 0;
      return await measure(() => callTool(connection, headers, server.call, ++id), sizes);
    } finally {
      connection.close();
    }
  },
};

export const latencyStdio = {
  id: 'latency-stdio',
  title: 'Sequential tools/call latency, stdio',
  transport: 'stdio',
  metrics,
  async run(server, sizes) {
    const client = await server.stdio();
    return measure(() => client.callTool(server.call), sizes);
  },
};
