import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import {
  startRoundRobinProxy,
  type RoundRobinProxy,
} from '../../examples/cluster/round-robin-proxy.mjs';
import { findService, describeWithService, TEST_REDIS_URL } from '../support/services.js';
import { ClosingStreamableTransport } from '../support/closing-transport.js';
import { deferred } from '../support/deferred.js';
import { until } from '../support/until.js';
import { ClusterInstance, deleteKeys, uniquePrefix } from './cluster-support.js';

/*
 * Three instances of the fixture app, each its own process in cluster mode on
 * one Redis, behind a round-robin proxy without stickiness; the official SDK
 * client talks to the proxy only. Handlers run on the instance a session was
 * initialized on (every tool answers with its instance's name), whichever
 * instance each request lands on.
 */

const NAMES = ['a', 'b', 'c'];

/** The text of a tool result. */
const textOf = (result: unknown) =>
  ((result as CallToolResult).content[0] as { text: string }).text;

describeWithService(await findService(TEST_REDIS_URL), 'cluster mode', (redisUrl) => {
  let prefix: string;
  let instances: ClusterInstance[];
  let proxy: RoundRobinProxy;
  const clients: Client[] = [];

  /* Three fresh instances behind a fresh proxy (a fresh log of what it served). */
  async function startInstances() {
    prefix = uniquePrefix();
    instances = NAMES.map(
      (name) => new ClusterInstance(name, { REDIS_URL: redisUrl, CLUSTER_PREFIX: prefix }),
    );
    await Promise.all(instances.map((i) => i.base));
  }
  async function startProxy() {
    proxy = await startRoundRobinProxy(await Promise.all(instances.map((i) => i.base)));
  }
  async function closeClients() {
    await Promise.allSettled(clients.splice(0).map((client) => client.close()));
    await proxy?.close();
  }
  async function stopInstances() {
    await Promise.all(instances.map((instance) => instance.kill()));
    await deleteKeys(redisUrl, prefix);
  }

  /** A connected client whose initialize lands on instance `owner`. */
  async function connect(owner: number, capabilities: object = {}) {
    const client = new Client({ name: 'cluster-test', version: '1.0.0' }, { capabilities });
    // Instances die under these clients: a closed one must leave no reconnection behind.
    const transport = new ClosingStreamableTransport(new URL('/mcp', proxy.url));
    proxy.steer(owner);
    const before = proxy.served.filter((r) => r.method === 'GET').length;
    await client.connect(transport);
    clients.push(client);
    // The client opens its standalone stream after connect resolves: let it land first.
    await until(() => proxy.served.filter((r) => r.method === 'GET').length > before, 'the GET');
    return { client, transport };
  }

  const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args });

  /** An SDK v2 client through the proxy, recording the bodies it POSTs. */
  async function connectV2(mode: 'legacy' | 'modern', owner = 0) {
    const posted: string[] = [];
    const recording: typeof fetch = (input, init) => {
      if (init?.method === 'POST' && typeof init.body === 'string') posted.push(init.body);
      return fetch(input, init);
    };
    const client = new ClientV2(
      { name: 'cluster-test-v2', version: '2.4.0' },
      {
        capabilities: { elicitation: {} },
        ...(mode === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    client.setRequestHandler('elicitation/create', async () => ({
      action: 'accept' as const,
      content: { approve: true },
    }));
    proxy.steer(owner);
    await client.connect(new TransportV2(new URL('/mcp', proxy.url), { fetch: recording }));
    clients.push(client as unknown as Client);
    return { client, posted };
  }

  /*
   * Booting three processes was most of this suite's time: the tests that leave every instance
   * running share one set, each behind a proxy of its own (so its log of what was served is its
   * own, and its sessions are its own); the two that kill an instance get fresh ones.
   */
  describe('three instances that every test leaves running', () => {
    beforeAll(startInstances);
    beforeEach(startProxy);
    afterEach(closeClients);
    afterAll(stopInstances);

    it('serves one session from every instance: initialize on one, calls and DELETE on the others', async () => {
      const { client, transport } = await connect(0);
      for (let i = 0; i < 6; i++) expect(textOf(await call(client, 'whoami'))).toBe('a');
      const calls = proxy.served.filter((r) => r.rpc === 'tools/call').map((r) => r.backend);
      expect(new Set(calls)).toEqual(new Set([0, 1, 2]));
      const sessionId = transport.sessionId!;
      proxy.steer(1);
      await transport.terminateSession();
      expect(proxy.served.at(-1)).toMatchObject({ method: 'DELETE', backend: 1 });
      // The session is gone on every instance.
      for (const instance of instances) {
        const response = await fetch(new URL('/mcp', await instance.base), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
        });
        expect(response.status).toBe(404);
      }
    });

    it('resumes a parked call on its instance when the approval lands on another', async () => {
      const asked = deferred<string>();
      const { client } = await connect(2, { elicitation: {} });
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.resolve(request.params.message);
        // The answer is the client's next request: it lands on an instance the call is not parked on.
        proxy.steer(0);
        return { action: 'accept', content: { approve: true } };
      });
      proxy.steer(1);
      expect(textOf(await call(client, 'guarded'))).toBe('c');
      expect(await asked.promise).toContain('Run guarded?');
      await until(() => proxy.served.some((r) => r.rpc === 'response'), 'the answer POST');
      expect(proxy.served.find((r) => r.rpc === 'tools/call')).toMatchObject({ backend: 1 });
      expect(proxy.served.find((r) => r.rpc === 'response')).toMatchObject({ backend: 0 });
    });

    it('delivers resources/updated and tools/list_changed to subscribers on other instances', async () => {
      const { client: writer } = await connect(0);
      const { client: reader } = await connect(1);
      expect(textOf(await call(reader, 'whoami'))).toBe('b');
      const updated = deferred<string>();
      const changed = deferred<void>();
      reader.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
        updated.resolve(n.params.uri),
      );
      reader.setNotificationHandler(ToolListChangedNotificationSchema, () => changed.resolve());
      await reader.subscribeResource({ uri: 'cluster://doc' });
      expect(textOf(await call(writer, 'touch', { uri: 'cluster://doc' }))).toBe('a');
      expect(await updated.promise).toBe('cluster://doc');
      expect(textOf(await call(writer, 'add_tool', { name: 'added_on_a' }))).toBe('a');
      await changed.promise;
    });

    it('without cluster the Redis client is never loaded; with it, it is', async () => {
      const solo = new ClusterInstance('solo', { REDIS_URL: undefined });
      try {
        const probe = await fetch(new URL('/cluster/modules', await solo.base));
        expect(await probe.json()).toEqual({ ioredis: false });
      } finally {
        await solo.kill();
      }
      const clustered = await fetch(new URL('/cluster/modules', await instances[0].base));
      expect(await clustered.json()).toEqual({ ioredis: true });
    });

    it('SDK v2 (handshake era): one session over every instance, the approval answered elsewhere', async () => {
      const { client } = await connectV2('legacy', 1);
      for (let i = 0; i < 4; i++) {
        expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('b');
      }
      expect(textOf(await client.callTool({ name: 'guarded', arguments: {} }))).toBe('b');
      // The answer's 202 may reach the proxy after the result it unparked.
      await until(() => proxy.served.some((r) => r.rpc === 'response'), 'the answer POST');
      const backends = new Set(
        proxy.served.filter((r) => r.method === 'POST').map((r) => r.backend),
      );
      expect(backends).toEqual(new Set([0, 1, 2]));
    });

    it('SDK v2 (2026-07-28): a requestState answered on another instance runs once; replayed, it is already used', async () => {
      const { client, posted } = await connectV2('modern');
      proxy.steer(0);
      const result = await client.callTool({ name: 'guarded', arguments: {} });
      // Asked on a, answered on b: the instance that ran it is the one the retry landed on.
      expect(textOf(result)).toBe('b');
      const retry = posted.find((body) => body.includes('"requestState"'));
      expect(retry).toBeDefined();
      proxy.steer(2);
      const replayed = await fetch(new URL('/mcp', proxy.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'guarded',
        },
        body: retry!,
      });
      const body = (await replayed.json()) as { result: CallToolResult };
      expect(proxy.served.at(-1)).toMatchObject({ backend: 2 });
      expect(body.result.isError).toBe(true);
      expect(JSON.stringify(body.result.content)).toContain('approval already used');
    });
  });

  describe('an instance killed mid-call (fresh instances each)', () => {
    beforeEach(async () => {
      await startInstances();
      await startProxy();
    });
    afterEach(async () => {
      await closeClients();
      await stopInstances();
    });

    /**
     * `slow` for `ms`, its POST steered to instance `via`; `progressed` resolves with the name
     * of the instance that runs it, from its first progress notification.
     */
    function slowCall(client: Client, via: number, ms: number) {
      const progressed = deferred<string>();
      proxy.steer(via);
      const result = client.callTool({ name: 'slow', arguments: { ms } }, undefined, {
        onprogress: (progress) => progressed.resolve(String(progress.message)),
        timeout: 30_000,
      });
      return { result, progressed: progressed.promise };
    }

    it('replays a stream whose relaying instance was killed: the call on its owner still answers', async () => {
      const { client } = await connect(0);
      const { result, progressed } = slowCall(client, 1, 2500);
      expect(await progressed).toBe('a');
      expect(proxy.served.at(-1)).toMatchObject({ rpc: 'tools/call', backend: 1 });
      await instances[1].kill();
      expect(textOf(await result)).toBe('a');
      const resumed = proxy.served.filter((r) => r.method === 'GET' && r.backend !== 1);
      expect(resumed.length).toBeGreaterThan(0);
    });

    it('ends an in-flight call with "outcome unknown" once its owner is killed, and the session with 404', async () => {
      const { client } = await connect(2);
      const { result, progressed } = slowCall(client, 2, 60_000);
      expect(await progressed).toBe('c');
      await instances[2].kill();
      // It may have run to its end before the owner died: the client is not told it did not.
      await expect(result).rejects.toMatchObject({
        code: -31504,
        message: expect.stringMatching(
          /Outcome unknown: .*stopped before answering; it may have run/,
        ),
      });
      await expect(call(client, 'whoami')).rejects.toThrow(/instance that held it has stopped|404/);
    });
  });
});
