import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { firstValueFrom, toArray, take } from 'rxjs';
import { McpClientEvents, type McpRootsListChangedEvent } from '../../src/index.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { createMcpApp } from '../support/mcp-test-app.js';
import { listen } from '../support/outbound.js';
import { GAPS_OPTIONS, GAPS_PROVIDERS, connectAs, sdkClient } from './spec-gaps-app.js';

/*
 * `notifications/roots/list_changed` reaches the app as an event on
 * `McpClientEvents.rootsListChanged$`, naming the connection and its
 * principal; the event's `listRoots()` asks that client for its new roots.
 */

describe.each(ADAPTERS)('roots list_changed through the SDK client on %s', (adapter) => {
  let t: HttpTestApp;
  let client: Client;
  let roots = [{ uri: 'file:///projects/a', name: 'a' }];

  beforeAll(async () => {
    t = await createHttpApp(GAPS_OPTIONS, GAPS_PROVIDERS, adapter);
    client = sdkClient({ roots: { listChanged: true } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
    await connectAs(client, t, 'alice');
  });

  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('emits the connection and principal, and listRoots() fetches the new roots', async () => {
    const conn = ((await client.callTool({ name: 'conn' })) as CallToolResult).content[0];
    const event = firstValueFrom(t.app.get(McpClientEvents).rootsListChanged$);
    roots = [...roots, { uri: 'file:///projects/b', name: 'b' }];
    await client.sendRootsListChanged();
    const changed = await event;
    expect(changed).toEqual({
      connId: (conn as { text: string }).text,
      transport: 'http',
      principal: { subject: 'alice', scopes: [] },
      listRoots: expect.any(Function),
    });
    expect(await changed.listRoots()).toEqual({ roots });
  });
});

describe('roots list_changed in process', () => {
  it('emits per connection, even for one that never declared roots, whose listRoots() then refuses', async () => {
    const t = await createMcpApp({}, GAPS_PROVIDERS);
    try {
      const events = firstValueFrom(
        t.app.get(McpClientEvents).rootsListChanged$.pipe(take(2), toArray()),
      );
      const a = listen(t.server, 'a');
      await t.initialize('a', { roots: { listChanged: true } });
      await t.initialize('b', {});
      const changed = { jsonrpc: '2.0', method: 'notifications/roots/list_changed' };
      expect(await t.server.handleMessage(changed, 'a')).toBeNull();
      expect(await t.server.handleMessage(changed, 'b')).toBeNull();
      const [fromA, fromB] = (await events) as McpRootsListChangedEvent[];
      expect([fromA.connId, fromB.connId]).toEqual(['a', 'b']);
      expect(fromA).not.toHaveProperty('principal');

      await expect(fromB.listRoots()).rejects.toThrow(
        'The client did not declare the roots capability',
      );
      // A's roots/list goes to A only, outside any request.
      const asked = a.next((m) => m.method === 'roots/list');
      const listed = fromA.listRoots();
      const request = await asked;
      await t.server.handleMessage(
        { jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: 'file:///x' }] } },
        'a',
      );
      expect(await listed).toEqual({ roots: [{ uri: 'file:///x' }] });
    } finally {
      await t.close();
    }
  });

  it('completes the stream when the app shuts down', async () => {
    const t = await createMcpApp();
    const done = firstValueFrom(t.app.get(McpClientEvents).rootsListChanged$.pipe(toArray()));
    await t.close();
    expect(await done).toEqual([]);
  });
});
