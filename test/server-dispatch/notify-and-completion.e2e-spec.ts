import { McpRegistry } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import {
  OBJECT_SCHEMA,
  BasicTools,
  ContentFixtures,
  many,
  CompletionFixtures,
} from './dispatch-app.js';
import { listen } from '../support/outbound.js';
describe('server dispatch', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('notify()', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [ContentFixtures, BasicTools]);
    });

    it('delivers list_changed to every subscribed connection', async () => {
      const a = listen(t!.server, 'a');
      const b = listen(t!.server, 'b');
      t!.server.notify('notifications/tools/list_changed');
      expect(a.ofMethod('notifications/tools/list_changed')).toHaveLength(1);
      expect(b.ofMethod('notifications/tools/list_changed')).toHaveLength(1);
      a.subscription.unsubscribe();
      b.subscription.unsubscribe();
    });

    it('delivers resources/updated only to connections subscribed to that uri, not after unsubscribe', async () => {
      const a = listen(t!.server, 'a');
      const b = listen(t!.server, 'b');
      await t!.initialize('a');
      await t!.initialize('b');
      expect(await t!.result('resources/subscribe', { uri: 'notes://index' }, 'a')).toEqual({});
      await t!.result('resources/subscribe', { uri: 'notes://other' }, 'b');

      t!.server.notify('notifications/resources/updated', { uri: 'notes://index' });
      expect(a.ofMethod('notifications/resources/updated')).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/resources/updated',
          params: { uri: 'notes://index' },
        },
      ]);
      expect(b.ofMethod('notifications/resources/updated')).toEqual([]);

      expect(await t!.result('resources/unsubscribe', { uri: 'notes://index' }, 'a')).toEqual({});
      t!.server.notify('notifications/resources/updated', { uri: 'notes://index' });
      expect(a.ofMethod('notifications/resources/updated')).toHaveLength(1);
      expect(b.ofMethod('notifications/resources/updated')).toEqual([]);
      a.subscription.unsubscribe();
      b.subscription.unsubscribe();
    });

    it('emits notifications/tools/list_changed when a tool is registered at runtime', async () => {
      const a = listen(t!.server, 'a');
      t!.app.get(McpRegistry).registerTool({
        name: 'late_tool',
        description: 'Registered after boot',
        inputSchema: OBJECT_SCHEMA,
        handler: () => 'late',
      });
      expect(a.messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
      a.subscription.unsubscribe();
    });

    it('drops resource subscriptions when the outbound Observable is unsubscribed', async () => {
      const first = listen(t!.server, 'a');
      await t!.initialize('a');
      await t!.result('resources/subscribe', { uri: 'notes://index' }, 'a');
      t!.server.notify('notifications/resources/updated', { uri: 'notes://index' });
      expect(first.ofMethod('notifications/resources/updated')).toHaveLength(1);
      first.subscription.unsubscribe();

      const second = listen(t!.server, 'a');
      t!.server.notify('notifications/resources/updated', { uri: 'notes://index' });
      expect(second.ofMethod('notifications/resources/updated')).toEqual([]);
      expect(first.ofMethod('notifications/resources/updated')).toHaveLength(1);
      // The new channel is live: a list change still reaches it.
      t!.server.notify('notifications/resources/list_changed');
      expect(second.ofMethod('notifications/resources/list_changed')).toHaveLength(1);
      second.subscription.unsubscribe();
    });
  });

  describe('completion/complete', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [CompletionFixtures]);
    });

    const complete = (ref: object, name: string, value: string) =>
      t!.request('completion/complete', { ref, argument: { name, value } });

    it('completes a prompt argument with its completer', async () => {
      const response = await complete({ type: 'ref/prompt', name: 'greet' }, 'lang', 'e');
      expect(response.result.completion).toEqual({
        values: ['en', 'es'],
        total: 2,
        hasMore: false,
      });
    });

    it('completes a resource template variable with its completer', async () => {
      const response = await complete({ type: 'ref/resource', uri: 'notes://{id}' }, 'id', 'al');
      expect(response.result.completion.values).toEqual(['alpha', 'alpine']);
    });

    it('completes a tool argument with a ref/tool completer', async () => {
      const response = await complete({ type: 'ref/tool', name: 'weather' }, 'city', 'Pr');
      expect(response.result.completion.values).toEqual(['Prague']);
    });

    it('caps 150 matches at 100 values with total 150 and hasMore true', async () => {
      const response = await complete({ type: 'ref/prompt', name: 'choose' }, 'pick', '');
      const { completion } = response.result;
      expect(completion.values).toEqual(many.slice(0, 100));
      expect(completion.total).toBe(150);
      expect(completion.hasMore).toBe(true);
    });

    it('answers an unknown prompt with -32602', async () => {
      const response = await complete({ type: 'ref/prompt', name: 'nope' }, 'lang', 'e');
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32602);
    });

    it('answers an argument with no completer with empty values', async () => {
      const response = await complete({ type: 'ref/prompt', name: 'greet' }, 'name', 'Jo');
      expect(response.error).toBeUndefined();
      expect(response.result.completion.values).toEqual([]);
    });
  });
});
