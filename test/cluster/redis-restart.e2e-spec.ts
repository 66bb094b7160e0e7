import { Logger, type LoggerService, type Provider } from '@nestjs/common';
import { McpRegistry } from '../../src/index.js';
import type { McpClusterBus } from '../../src/mcp/cluster/cluster-bus.js';
import { MCP_CLUSTER_BUS } from '../../src/mcp/cluster/cluster.constants.js';
import { JsonRpcErrorCode } from '../../src/mcp/core/protocol/error-codes.constants.js';
import { deferred } from '../support/deferred.js';
import { describeGated } from '../support/gated-describe.js';
import { createHttpApp, initializeParams, type HttpTestApp } from '../support/http-app.js';
import { within } from '../support/reliability-support.js';
import { REQUIRE_SERVICES_ENV } from '../support/services.js';
import { redisServerLookup, ThrowawayRedis } from './throwaway-redis.js';

/*
 * Two instances on a Redis of the test's own, which restarts empty: every key
 * of the cluster (liveness, session records, quotas, logs) is gone at once.
 * The holder of a session registers it again as soon as its connections are
 * back, not at its next sweep (once a minute): meanwhile the other instance
 * would answer 404, and a 404 tells a client to start over.
 */

/** Far below the holder's sweep (every minute): the records come back on reconnect, not then. */
const RECOVERED_WITHIN_MS = 15_000;

/** One record of the captured log. */
interface LogLine {
  level: string;
  message: string;
  context?: string;
}

/** Every line Nest's static logger is given, from the moment it is installed. */
function captureLogs(): LogLine[] {
  const lines: LogLine[] = [];
  const record =
    (level: string) =>
    (message: unknown, ...rest: unknown[]) =>
      lines.push({
        level,
        message: String(message),
        context: typeof rest.at(-1) === 'string' ? (rest.at(-1) as string) : undefined,
      });
  const capture: LoggerService = {
    log: record('log'),
    warn: record('warn'),
    error: record('error'),
    debug: record('debug'),
    verbose: record('verbose'),
    fatal: record('fatal'),
  };
  Logger.overrideLogger(capture);
  return lines;
}

/** Resolves the next time `bus` sees the store `go` (lost) or `return` (recovered). */
function next(bus: McpClusterBus, event: 'lost' | 'recovered'): Promise<void> {
  return new Promise((resolve) => {
    const once = () => {
      off();
      resolve();
    };
    const off = event === 'lost' ? bus.health.onLost(once) : bus.health.onRecovered(once);
  });
}

describeGated(
  redisServerLookup(),
  'cluster mode when Redis restarts empty',
  REQUIRE_SERVICES_ENV,
  () => {
    let redis: ThrowawayRedis;
    const closers: (() => Promise<unknown>)[] = [];

    beforeEach(async () => {
      redis = await ThrowawayRedis.start();
    });
    afterEach(async () => {
      Logger.overrideLogger(false);
      await Promise.all(closers.splice(0).map((close) => close()));
      await redis.stop();
    });

    async function instance(providers: Provider[] = []) {
      const app: HttpTestApp = await createHttpApp(
        { requireAuthorization: false, cluster: { redisUrl: redis.url, keyPrefix: 'restart:' } },
        providers,
      );
      closers.push(() => app.close());
      return { app, bus: app.app.get<McpClusterBus>(MCP_CLUSTER_BUS) };
    }

    /** Kills Redis and waits until every bus saw it go. */
    async function outage(buses: McpClusterBus[]): Promise<void> {
      const lost = Promise.all(buses.map((bus) => next(bus, 'lost')));
      await redis.kill();
      await lost;
    }

    /** Starts Redis again, empty, and waits until every bus is back (within the bound). */
    async function restartEmpty(buses: McpClusterBus[]): Promise<void> {
      const recovered = Promise.all(buses.map((bus) => next(bus, 'recovered')));
      await redis.restart();
      await within(recovered, RECOVERED_WITHIN_MS, 'every instance back on the restarted store');
    }

    it('a session held by one instance is served through the other at once, not 404 until the next sweep', async () => {
      const [a, b] = [await instance(), await instance()];
      const { sessionId } = await a.app.initialize('2025-06-18');
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      await outage([a.bus, b.bus]);
      const restarted = Date.now();
      await restartEmpty([a.bus, b.bus]);
      const pinged = await b.app.post(b.app.message('ping', undefined, 7), headers);
      expect(pinged.status).toBe(200);
      expect(await pinged.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
      expect(Date.now() - restarted).toBeLessThan(RECOVERED_WITHIN_MS);
      // Its quota share is back too: a DELETE through b ends it on a, and frees the share.
      const ended = await b.app.fetch('/mcp', {
        method: 'DELETE',
        headers: { 'mcp-session-id': sessionId },
      });
      expect(ended.status).toBe(200);
    });

    it('an outage is one warning when it starts and one line when it ends; its 503s log no stack', async () => {
      const [a, b] = [await instance(), await instance()];
      const { sessionId } = await a.app.initialize('2025-06-18');
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      const lines = captureLogs();
      await outage([a.bus, b.bus]);
      // What needs the store is refused meanwhile: a request forwarded to the holder, a new session.
      const refused = await Promise.all([
        b.app.post(b.app.message('ping'), headers),
        b.app.post(b.app.message('ping'), headers),
        a.app.post(a.app.message('initialize', initializeParams())),
        b.app.post(b.app.message('initialize', initializeParams())),
      ]);
      expect(refused.map((response) => response.status)).toEqual([503, 503, 503, 503]);
      await restartEmpty([a.bus, b.bus]);

      const said = lines.filter((line) => line.level !== 'debug' && line.level !== 'verbose');
      expect(said.map(({ level, context }) => ({ level, context }))).toEqual([
        { level: 'warn', context: 'McpCluster' },
        { level: 'warn', context: 'McpCluster' },
        { level: 'log', context: 'McpCluster' },
        { level: 'log', context: 'McpCluster' },
      ]);
      expect(said[0].message).toMatch(/^the cluster store cannot be reached \(.+\)/);
      expect(said[2].message).toMatch(/^the cluster store is reachable again after \d+\.\d s/);
      expect(lines.filter((line) => line.message.includes('    at '))).toEqual([]);
    });

    it('a call relayed while the store restarts ends with "outcome unknown"; its holder is not taken for dead', async () => {
      const running = deferred();
      const release = deferred();
      const SLOW_TOOL: Provider = {
        provide: 'slow-tool',
        useFactory: (registry: McpRegistry) =>
          registry.registerTool({
            name: 'slow',
            description: 'Runs until the test lets it finish',
            inputSchema: { type: 'object' },
            handler: async () => {
              running.resolve();
              await release.promise;
              return 'ran';
            },
          }),
        inject: [McpRegistry],
      };
      const [a, b] = [await instance([SLOW_TOOL]), await instance([SLOW_TOOL])];
      const { sessionId } = await a.app.initialize('2025-06-18');
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      const call = b.app.post(b.app.message('tools/call', { name: 'slow' }, 'c1'), headers);
      await running.promise;
      await outage([a.bus, b.bus]);
      await restartEmpty([a.bus, b.bus]);
      // Whatever the holder sent while the store was away is lost: the relay cannot tell. The
      // tool runs once the forward arrived, but the holder's acknowledgement may still have been
      // on its way when the store went: then the POST itself was never acknowledged (HTTP 504).
      // Either way the answer is "outcome unknown", never a plain failure.
      const answered = await call;
      expect([200, 504]).toContain(answered.status);
      expect(await answered.json()).toEqual(
        expect.objectContaining({
          jsonrpc: '2.0',
          error: {
            code: JsonRpcErrorCode.OutcomeUnknown,
            message: expect.stringMatching(/^Outcome unknown: /),
          },
        }),
      );
      release.resolve();
      // The holder stays alive to the other instance: the session is still served through it.
      const pinged = await b.app.post(b.app.message('ping', undefined, 8), headers);
      expect(pinged.status).toBe(200);
    });
  },
  true,
);
