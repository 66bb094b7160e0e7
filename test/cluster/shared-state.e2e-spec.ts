import type { Provider } from '@nestjs/common';
import { McpRegistry, McpWarden, type McpModuleOptions } from '../../src/index.js';
import { SseReader } from '../support/http-sse.js';
import { until } from '../support/until.js';
import { ClusterKeys } from '../../src/mcp/cluster/cluster-keys.js';
import { McpClusterBus } from '../../src/mcp/cluster/cluster-bus.js';
import { RedisEventLog } from '../../src/mcp/cluster/redis-event.log.js';
import { RedisNonceStore } from '../../src/mcp/cluster/redis-nonce.store.js';
import { RedisCallRate } from '../../src/mcp/cluster/redis-quota.js';
import { McpHttpSessions } from '../../src/mcp/transports/http/session/http-sessions.service.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { describeWithService, findService, TEST_REDIS_URL } from '../support/services.js';
import {
  denial,
  ELICIT,
  MODERN_OPTIONS,
  MODERN_PROVIDERS,
  bootModernApp,
  modernMessage,
  postModern,
  resetFixture,
  runs,
  SERVER_INFO_KEY,
} from '../modern/modern-app.js';
import { deleteKeys, uniquePrefix } from './cluster-support.js';

/*
 * What instances share through Redis besides sessions: single-use approval
 * states, per-caller session quotas and call rates, and the event log. Two or
 * more apps in this process, on one Redis under a prefix of their own.
 */

/** Registers `guarded`, which the tests' policy asks about. */
const GUARDED_TOOL = {
  provide: 'guarded-tool',
  useFactory: (registry: McpRegistry) =>
    registry.registerTool({
      name: 'guarded',
      description: 'Runs once a human approves',
      inputSchema: { type: 'object' },
      handler: () => 'ran',
    }),
  inject: [McpRegistry],
};

describeWithService(
  await findService(TEST_REDIS_URL),
  'state shared by cluster instances',
  (redisUrl) => {
    let prefix: string;
    const closers: (() => Promise<unknown>)[] = [];

    beforeEach(() => {
      prefix = uniquePrefix();
      resetFixture();
    });
    afterEach(async () => {
      await Promise.all(closers.splice(0).map((close) => close()));
      await deleteKeys(redisUrl, prefix);
    });

    const cluster = () => ({ redisUrl, keyPrefix: prefix });

    async function httpInstance(
      options: Partial<McpModuleOptions>,
      providers: Provider[] = [],
    ): Promise<HttpTestApp> {
      const app = await createHttpApp(
        { requireAuthorization: false, ...options, cluster: cluster() },
        providers,
      );
      closers.push(() => app.close());
      return app;
    }

    async function bus(): Promise<McpClusterBus> {
      const connected = await McpClusterBus.connect({
        redisUrl,
        keyPrefix: prefix,
        maxMessageBytes: 1024 * 1024,
      });
      closers.push(() => connected.close());
      return connected;
    }

    it('a requestState approved on one instance is "approval already used" on another', async () => {
      const SECRET = 'a shared secret of the cluster, long enough to matter';
      const instance = async () => {
        const t: McpTestApp = await createMcpApp(
          { ...MODERN_OPTIONS, stateSecret: SECRET, cluster: cluster() },
          MODERN_PROVIDERS,
        );
        closers.push(() => t.close());
        return t.app.get(McpWarden);
      };
      const [a, b] = [await instance(), await instance()];
      const asked = (await a.handleMessage(
        modernMessage(1, 'tools/call', { name: 'purge', arguments: {} }, ELICIT),
      )) as any;
      expect(asked.result.resultType).toBe('input_required');
      const retry = (id: number) =>
        modernMessage(
          id,
          'tools/call',
          {
            name: 'purge',
            arguments: {},
            inputResponses: { approval: { action: 'accept', content: { approve: true } } },
            requestState: asked.result.requestState,
          },
          ELICIT,
        );
      const server = { [SERVER_INFO_KEY]: { name: 'test-server', version: '1.0.0' } };
      expect(((await b.handleMessage(retry(2))) as any).result).toEqual({
        content: [{ type: 'text', text: 'purged' }],
        resultType: 'complete',
        _meta: server,
      });
      expect(((await a.handleMessage(retry(3))) as any).result).toEqual({
        ...denial('purge', 'ask', 'approval already used'),
        resultType: 'complete',
        _meta: server,
      });
      expect(runs.purge).toBe(1);
    });

    it('of many instances consuming one nonce at once, exactly one wins', async () => {
      const buses = await Promise.all([bus(), bus(), bus()]);
      const stores = buses.map((b) => new RedisNonceStore(b.command, b.keys));
      const expiresAt = Date.now() + 60_000;
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, (_, i) => stores[i % 3].consume('the-nonce', expiresAt)),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      expect(await stores[1].consume('another-nonce', expiresAt)).toBe(true);
    });

    it('holds maxSessionsPerPrincipal over every instance, and frees a share when a session ends', async () => {
      const limits = { maxSessionsPerPrincipal: 2 };
      const [a, b] = [await httpInstance({ limits }), await httpInstance({ limits })];
      const first = await a.initialize();
      await b.initialize();
      const refused = await a.post(
        a.message('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        }),
      );
      expect(refused.status).toBe(429);
      const onB = await b.post(
        b.message('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        }),
      );
      expect(onB.status).toBe(429);
      // Ended on the other instance (the DELETE is forwarded to a): its share is free again.
      const ended = await b.fetch('/mcp', {
        method: 'DELETE',
        headers: { 'mcp-session-id': first.sessionId },
      });
      expect(ended.status).toBe(200);
      await b.initialize();
    });

    it('holds callsPerSecondPerPrincipal over every instance', async () => {
      // One call a second, two at once: the initialize and one ping, wherever they land.
      const limits = { callsPerSecondPerPrincipal: 1 };
      const [a, b] = [await httpInstance({ limits }), await httpInstance({ limits })];
      const { sessionId } = await a.initialize('2025-06-18');
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      expect((await b.post(b.message('ping'), headers)).status).toBe(200);
      const over = await a.post(a.message('ping'), headers);
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('1');
    });

    it('call-rate leases: concurrent calls share one lease, and a small bucket is exact over instances', async () => {
      const [one, two] = await Promise.all([bus(), bus()]);
      const [a, b] = [
        new RedisCallRate(one.command, one.keys),
        new RedisCallRate(two.command, two.keys),
      ];
      // A big bucket: 64 concurrent calls on two instances all pass (no lease starves the other).
      const big = await Promise.all(
        Array.from({ length: 64 }, (_, i) => (i % 2 ? a : b).take('busy', 1, 1e9, 2e9)),
      );
      expect(big.every((wait) => wait === 0)).toBe(true);
      // Two tokens, one a second: of ten calls at once over both instances, exactly two pass.
      const small = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).take('slow', 1, 1, 2)),
      );
      expect(small.filter((wait) => wait === 0)).toHaveLength(2);
      expect(small.filter((wait) => wait > 0).every((wait) => wait <= 1000)).toBe(true);
    });

    it('a cancellation landing on another instance ends the call parked on the holder', async () => {
      const options: Partial<McpModuleOptions> = {
        authorizer: () => ({ kind: 'ask', prompt: 'Run guarded?' }),
        authorizerSource: 'configured',
        readAuthorizer: () => ({ kind: 'allow' }),
      };
      const [a, b] = [
        await httpInstance(options, [GUARDED_TOOL]),
        await httpInstance(options, [GUARDED_TOOL]),
      ];
      const { sessionId } = await a.initialize('2025-06-18', { elicitation: {} });
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      // The call goes through b: its stream (the approval request, then the end) comes from a.
      const call = b.post(
        b.message('tools/call', { name: 'guarded', arguments: {} }, 'c1'),
        headers,
      );
      const stream = new SseReader(await call);
      const asked = await stream.waitForMessage((m) => m.method === 'elicitation/create');
      expect(asked.params.message).toContain('Run guarded?');
      const server = a.app.get(McpWarden);
      expect(server.stats().pendingClientRequests).toBe(1);
      const cancel = {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'c1' },
      };
      expect((await b.post(cancel, headers)).status).toBe(202);
      await until(() => server.stats().pendingClientRequests === 0, 'the parked call to end');
      await stream.ended;
      expect(stream.messages.some((m) => m.id === 'c1')).toBe(false);
    });

    it('a standalone stream relayed by another instance carries notifications, and its end frees the session', async () => {
      const [a, b] = [await httpInstance({}), await httpInstance({})];
      const { sessionId } = await a.initialize('2025-06-18');
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      const abort = new AbortController();
      const stream = new SseReader(await b.get(sessionId, headers, abort));
      await stream.waitFor((event) => event.id !== undefined);
      const session = a.app.get(McpHttpSessions).find(sessionId)!;
      await until(() => session.streaming, 'the holder to know the stream is relayed');
      a.app.get(McpWarden).notify('notifications/tools/list_changed');
      await stream.waitForMessage((m) => m.method === 'notifications/tools/list_changed');
      abort.abort();
      // The relaying instance tells the holder: the session may go idle again.
      await until(() => !session.streaming, 'the holder to hear the stream ended');
    });

    it('a notification on one instance reaches a 2026-07-28 subscriptions/listen stream on another', async () => {
      const boot = async () => {
        const t = await bootModernApp('express', { cluster: cluster() });
        closers.push(() => t.close());
        return t;
      };
      const [a, b] = [await boot(), await boot()];
      const abort = new AbortController();
      const listen = modernMessage(41, 'subscriptions/listen', {
        notifications: { toolsListChanged: true },
      });
      const reader = new SseReader(await postModern(b, listen, {}, abort));
      await reader.at(0);
      a.app.get(McpWarden).notify('notifications/tools/list_changed');
      const changed = await reader.waitForMessage(
        (m) => m.method === 'notifications/tools/list_changed',
      );
      expect(changed.params._meta).toBeDefined();
      abort.abort();
    });

    it('serves a session held by another instance, and refuses an unknown event id there', async () => {
      const [a, b] = [await httpInstance({}), await httpInstance({})];
      const { sessionId } = await a.initialize('2025-06-18');
      const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
      const pinged = await b.post(b.message('ping', undefined, 7), headers);
      expect(pinged.status).toBe(200);
      // Only its response came: plain JSON, as the holder would have answered itself.
      expect(pinged.headers.get('content-type')).toMatch(/application\/json/);
      expect(await pinged.json()).toEqual({ jsonrpc: '2.0', id: 7, result: {} });
      // A client that lists text/event-stream first gets a stream, with the session's event ids.
      const streamed = await b.post(b.message('ping', undefined, 8), {
        ...headers,
        accept: 'text/event-stream, application/json',
      });
      expect(streamed.headers.get('content-type')).toMatch(/text\/event-stream/);
      expect(await streamed.text()).toMatch(
        /id: \d+\.\d+\ndata: \{"jsonrpc":"2.0","id":8,"result":\{\}\}/,
      );
      const unknown = await b.get(sessionId, { ...headers, 'last-event-id': '99.1' });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error: { message: 'Unknown event id' } });
      const garbage = await b.get(sessionId, { ...headers, 'last-event-id': 'no dot' });
      expect(garbage.status).toBe(404);
    });

    it('keeps a capped log of each session: events, opened and ended streams, in order', async () => {
      const connected = await bus();
      const log = new RedisEventLog(connected.command, new ClusterKeys(prefix), 20, 60_000);
      log.opened('s', '1', [1, 'two']);
      for (let i = 1; i <= 400; i++) log.append('s', '1', `1.${i}`, `{"n":${i}}`);
      log.ended('s', '1');
      const entries = await log.read('s');
      // MAXLEN ~ trims whole nodes: never below the cap, never far above it.
      const kept = await connected.command.xlen(`${prefix}log:s`);
      expect(kept).toBeGreaterThanOrEqual(20);
      expect(kept).toBeLessThanOrEqual(20 + 128);
      expect(entries).toHaveLength(kept);
      expect(entries.at(-1)).toEqual({ kind: 'ended', stream: '1' });
      const seqs = entries.flatMap((e) => (e.kind === 'event' ? [e.seq] : []));
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(seqs.at(-1)).toBe(400);
      log.remove('s');
    });
  },
);
