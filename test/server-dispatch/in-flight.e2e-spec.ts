import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { WaitingTools, ProgressTools } from './dispatch-app.js';
import { listen } from '../support/outbound.js';
describe('server dispatch', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('logging/setLevel', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [ProgressTools]);
    });

    it('accepts a valid level with an empty result', async () => {
      expect(await t!.result('logging/setLevel', { level: 'warning' })).toEqual({});
    });

    it('answers an invalid level with -32602', async () => {
      const response = await t!.request('logging/setLevel', { level: 'loud' });
      expect(response.error.code).toBe(-32602);
    });

    it('filters ctx.log by the level the connection set', async () => {
      const out = listen(t!.server, 'logs');
      await t!.initialize('logs');
      await t!.result('logging/setLevel', { level: 'warning' }, 'logs');
      await t!.callTool('chatty', {}, 'logs');
      expect(out.ofMethod('notifications/message').map((m) => m.params)).toEqual([
        { level: 'warning', data: 'w' },
        { level: 'error', data: 'e' },
      ]);

      out.messages.length = 0;
      await t!.result('logging/setLevel', { level: 'debug' }, 'logs');
      await t!.callTool('chatty', {}, 'logs');
      expect(out.ofMethod('notifications/message').map((m) => m.params.level)).toEqual([
        'debug',
        'info',
        'warning',
        'error',
      ]);
      out.subscription.unsubscribe();
    });
  });

  describe('cancellation', () => {
    it('aborts the signal and resolves the cancelled request with null', async () => {
      t = await createMcpApp({}, [WaitingTools]);
      const tools = t.app.get(WaitingTools);
      const out = listen(t.server, 'c1');
      await t.initialize('c1');

      const pending = t.server.handleMessage(
        { jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: 'wait' } },
        'c1',
      );
      const signal = await tools.started.promise;
      expect(signal.aborted).toBe(false);

      const ack = await t.server.handleMessage(
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'call-1', reason: 'user hit stop' },
        },
        'c1',
      );
      expect(ack).toBeNull();
      expect(await pending).toBeNull();
      expect(signal.aborted).toBe(true);
      // No response for the cancelled request is pushed on the channel either.
      expect(out.messages.filter((m) => m.id === 'call-1')).toEqual([]);
      out.subscription.unsubscribe();
    });
  });

  describe('progress', () => {
    it('sends increasing progress with the token to the caller before the response, none after', async () => {
      t = await createMcpApp({}, [ProgressTools]);
      const tools = t.app.get(ProgressTools);
      const timeline: any[] = [];
      const caller = t.server.subscribe('caller').subscribe((m) => timeline.push(m));
      const bystander = listen(t.server, 'bystander');
      await t.initialize('caller');
      await t.initialize('bystander');

      const response: any = await t.server.handleMessage(
        {
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'work', arguments: {}, _meta: { progressToken: 'tok-1' } },
        },
        'caller',
      );
      timeline.push({ response });

      expect(timeline).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 1, total: 3 },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok-1', progress: 2, total: 3 },
        },
        {
          response: {
            jsonrpc: '2.0',
            id: 5,
            result: { content: [{ type: 'text', text: 'worked' }] },
          },
        },
      ]);

      // After the response, progress from the same context is dropped.
      tools.context!.progress(3, 3);
      expect(timeline).toHaveLength(3);
      expect(bystander.ofMethod('notifications/progress')).toEqual([]);
      caller.unsubscribe();
      bystander.subscription.unsubscribe();
    });
  });
});
