import { HTTP_VARIANTS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { runs, SecurityTools, HTTP_OPTIONS } from './security-app.js';

describe.each(HTTP_VARIANTS)(
  'answers to elicitations: other sessions, forged ids, replays on %s',
  (adapter) => {
    let t: HttpTestApp;
    beforeEach(async () => {
      runs.length = 0;
      t = await createHttpApp(HTTP_OPTIONS, [SecurityTools], adapter);
    });
    afterEach(() => t?.close());

    /** POSTs a client answer (a JSON-RPC response) on `sessionId`; it must be accepted with 202. */
    async function answer(sessionId: string, id: unknown, result: object): Promise<void> {
      const response = await t.post(
        { jsonrpc: '2.0', id, result },
        { 'mcp-session-id': sessionId },
      );
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('');
    }

    /** A's guarded call, read up to its elicitation. */
    async function parkOn(sessionId: string, id: number) {
      const call = new SseReader(
        await t.post(t.message('tools/call', { name: 'guarded', arguments: {} }, id), {
          'mcp-session-id': sessionId,
        }),
      );
      const elicitation = await call.waitForMessage((m) => m.method === 'elicitation/create');
      return { call, elicitation };
    }

    const APPROVE = { action: 'accept', content: { approve: true } };

    it("session B's answer to A's elicitation is ignored; A's own answer decides", async () => {
      const a = await t.initialize('2025-11-25', { elicitation: {} });
      const b = await t.initialize('2025-11-25', { elicitation: {} });
      const bStream = await t.openStandalone(b.sessionId);
      await bStream.at(0);
      const { call, elicitation } = await parkOn(a.sessionId, 1);

      await answer(b.sessionId, elicitation.id, APPROVE);
      // A's call is still parked (no response on its stream), and the tool did not run.
      const ping = await t.post(t.message('ping'), { 'mcp-session-id': a.sessionId });
      expect(await ping.json()).toMatchObject({ result: {} });
      expect(call.messages.filter((m) => m.id === 1)).toEqual([]);
      expect(runs).toEqual([]);

      await answer(a.sessionId, elicitation.id, { action: 'decline' });
      const response = await call.waitForMessage((m) => m.id === 1);
      expect(response.result.structuredContent).toEqual({
        error: 'authorization_required',
        tool: 'guarded',
        decision: 'ask',
        detail: 'user declined',
      });
      expect(runs).toEqual([]);
      // B never saw A's elicitation.
      expect(bStream.messages.filter((m) => m.method === 'elicitation/create')).toEqual([]);
    });

    it('forged ids are ignored; the real approval runs the tool once; a replay changes nothing', async () => {
      const a = await t.initialize('2025-11-25', { elicitation: {} });
      const { call, elicitation } = await parkOn(a.sessionId, 1);
      const realId = String(elicitation.id);
      expect(realId.length).toBeGreaterThanOrEqual(16);

      for (const forged of [
        realId.toUpperCase() === realId ? realId.toLowerCase() : realId.toUpperCase(),
        `${realId} `,
        realId.slice(0, -1),
        `${realId}x`,
        1, // the call's own request id
        '1',
      ]) {
        await answer(a.sessionId, forged, APPROVE);
      }
      const ping = await t.post(t.message('ping'), { 'mcp-session-id': a.sessionId });
      expect(await ping.json()).toMatchObject({ result: {} });
      expect(runs).toEqual([]);
      expect(call.messages.filter((m) => m.id === 1)).toEqual([]);

      await answer(a.sessionId, realId, APPROVE);
      const response = await call.waitForMessage((m) => m.id === 1);
      expect(response.result).toEqual({ content: [{ type: 'text', text: 'guarded ran' }] });
      expect(runs).toEqual(['guarded']);

      // Replaying the same approval, then against a new parked call: nothing runs.
      await answer(a.sessionId, realId, APPROVE);
      const second = await parkOn(a.sessionId, 2);
      expect(second.elicitation.id).not.toBe(realId);
      await answer(a.sessionId, realId, APPROVE);
      expect(runs).toEqual(['guarded']);
      await answer(a.sessionId, second.elicitation.id, { action: 'decline' });
      const denied = await second.call.waitForMessage((m) => m.id === 2);
      expect(denied.result.structuredContent.detail).toBe('user declined');
      expect(runs).toEqual(['guarded']);
      // The first call got exactly one response.
      expect(call.messages.filter((m) => m.id === 1)).toHaveLength(1);
    });
  },
);
