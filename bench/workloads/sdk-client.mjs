// The realistic figure: tools/call throughput as an application sees it through the official
// SDK 1.x client (Client + StreamableHTTPClientTransport, fetch underneath), 32 calls in flight on
// one client. The client's own cost is part of the figure, so the gaps between servers shrink.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe } from '../lib/mcp.mjs';
import { drive, driveMeasured } from '../lib/measure.mjs';

const IN_FLIGHT = 32;

export const sdkClientHttp = {
  id: 'sdk-client-http',
  title: `tools/call throughput through the official SDK 1.x client, ${IN_FLIGHT} in flight, Streamable HTTP`,
  transport: 'http',
  metrics: [
    { key: 'rate', label: 'calls/s', unit: '/s' },
    { key: 'serverCpu', label: 'server CPU (µs/call)', unit: 'µs', ratio: false },
    { key: 'driverCpu', label: 'driver CPU (% of a core)', unit: '%', ratio: false },
  ],
  async run(server, sizes) {
    // The client's fetch (undici) adds an abort listener per request to the transport's one
    // AbortSignal and drops it only once the request is garbage-collected, so Node warns on every
    // request past 1,500 listeners. That is the client's business, not the server's: keep those
    // warnings from flooding the bench's output while this workload runs.
    const emitWarning = process.emitWarning;
    process.emitWarning = (warning, ...rest) => {
      if (warning?.name !== 'MaxListenersExceededWarning')
        emitWarning.call(process, warning, ...rest);
    };
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const { name, args } = server.call;
      const step = async () => {
        const result = await client.callTool({ name, arguments: args });
        if (!server.call.ok({ result })) throw new Error(`${name} failed: ${describe(result)}`);
      };
      await drive({ workers: IN_FLIGHT, ...sizes.warmup, step });
      return await driveMeasured(server, { workers: IN_FLIGHT, ...sizes.throughput, step });
    } finally {
      await client.close();
      process.emitWarning = emitWarning;
    }
  },
};
