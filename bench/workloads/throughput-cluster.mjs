// tools/call throughput in cluster mode, 32 in flight on 32 raw keep-alive connections sharing
// one session (as throughput-http): one instance with `cluster` against the same server embedded
// (direct, so its server CPU is comparable), then through the round-robin proxy of
// examples/cluster to one embedded instance, one clustered instance and two clustered instances
// (the session lives on one of the two: half the calls are forwarded to it over Redis and
// answered through the instance they landed on). Server CPU per call is the server process's
// for the direct rows, and the proxy's process only for the proxied ones (their instances are
// its children); the proxied rows' ratios compare like with like (the same proxy).
import { throughputHttp } from './throughput.mjs';

export const throughputCluster = {
  id: 'throughput-cluster',
  title:
    'tools/call throughput in cluster mode (Redis), 32 in flight, Streamable HTTP (32 keep-alive connections, one session)',
  transport: 'http',
  needsRedis: true,
  servers: [
    'sdk1-http',
    'warden-http',
    'warden-redis-http',
    'warden-proxy-embedded',
    'warden-proxy-cluster-1',
    'warden-proxy-cluster-2',
  ],
  labels: { 'warden-http': 'mcp-warden (embedded)' },
  baselines: ['sdk1-http', 'warden-http', 'warden-proxy-embedded'],
  metrics: [
    { key: 'rate', label: 'calls/s', unit: '/s' },
    {
      key: 'serverCpu',
      label: 'server CPU (µs/call; proxied: the proxy)',
      unit: 'µs',
      ratio: false,
    },
  ],
  run: throughputHttp.run,
};
