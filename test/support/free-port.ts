import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/*
 * Suites that must name a port before their app listens on it (an OAuth audience, a redirect URI
 * registered at the issuer) pick it here. A port the kernel handed out (listen on 0) comes from
 * its ephemeral range, the same range every outbound connection's source port comes from: with
 * suites running side by side, another process took such a port between the probe and the
 * app's own listen (EADDRINUSE). Ports below that range are never handed out by the kernel, so
 * only another pick of the same random port could collide.
 */

/** The first port of the kernel's ephemeral range (Linux's default where it cannot be read). */
function readEphemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    return low !== undefined && Number.isInteger(low) ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/* Read once per process: the range does not change under a test run. */
const EPHEMERAL_START = readEphemeralStart();

/** Above the ports of the usual local services (PostgreSQL, Redis, brokers, dev servers). */
const FIRST = 20_000;
const TRIES = 50;

/** Resolves with the port if nothing listens on it now, else with undefined. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(bound));
    });
  });
}

/** A port that was free a moment ago, and that the kernel will not hand to anyone else. */
export async function freePort(): Promise<number> {
  const end = EPHEMERAL_START;
  if (end - FIRST >= 1_000) {
    for (let i = 0; i < TRIES; i++) {
      const port = await probe(FIRST + Math.floor(Math.random() * (end - FIRST)));
      if (port !== undefined) return port;
    }
  }
  // A kernel whose ephemeral range starts low leaves no such ports: any free one, then.
  const port = await probe(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}
