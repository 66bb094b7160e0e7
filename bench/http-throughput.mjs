// tools/call echo over Streamable HTTP, 32 in flight: MCP Warden vs the official SDK 1.x server,
// interleaved runs in one process, medians and the ratio. Run `npm run build` first.
import { fileURLToPath } from 'node:url';
import { echoThroughput, openSession } from './lib/http-load.mjs';
import { startServer } from './lib/spawn-server.mjs';

const total = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 3);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const servers = {
  'mcp-warden': here('./servers/warden-http.mjs'),
  'sdk-1.x': here('./servers/sdk1-http.mjs'),
};

const results = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
const started = {};
for (const [name, script] of Object.entries(servers)) started[name] = await startServer(script);
try {
  for (let run = 0; run < runs; run++) {
    for (const name of Object.keys(servers)) {
      const headers = await openSession(started[name].url);
      await echoThroughput(started[name].url, headers, Math.min(1000, total), 32); // warm-up
      results[name].push(await echoThroughput(started[name].url, headers, total, 32));
    }
  }
} finally {
  for (const server of Object.values(started)) server.stop();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(results['sdk-1.x']);
for (const [name, xs] of Object.entries(results)) {
  const m = median(xs);
  console.log(
    `${name.padEnd(12)} ${Math.round(m).toString().padStart(7)} calls/s  (${(m / base).toFixed(2)}x sdk-1.x)`,
  );
}
