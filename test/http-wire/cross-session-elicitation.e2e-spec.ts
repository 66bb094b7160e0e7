import { type HttpTestApp, HTTP_VARIANTS } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { runs, wireApp, callTool } from './wire-app.js';

describe.each(HTTP_VARIANTS)('elicitation across sessions on %s', (adapter) => {
  let t: HttpTestApp;

  beforeEach(async () => {
    runs.length = 0;
    t = await wireApp(adapter);
  });
  afterEach(() => t.close());

  it("another session's answer to a session's elicitation is ignored; the owner's answer decides", async () => {
    const a = await t.initialize('2025-11-25', { elicitation: {} });
    const b = await t.initialize('2025-11-25', { elicitation: {} });

    const call = new SseReader(
      await t.post(callTool(41, 'drop_table'), { 'mcp-session-id': a.sessionId }),
    );
    const ask = await call.waitForMessage((m) => m.method === 'elicitation/create');
    expect(ask.params.message).toBe('Drop the whole table?');

    // Session B forges an approval for A's request: accepted as a message, changes nothing.
    const forged = await t.post(
      { jsonrpc: '2.0', id: ask.id, result: { action: 'accept', content: { approve: true } } },
      { 'mcp-session-id': b.sessionId },
    );
    expect(forged.status).toBe(202);
    expect(await forged.text()).toBe('');

    const own = await t.post(
      { jsonrpc: '2.0', id: ask.id, result: { action: 'decline' } },
      { 'mcp-session-id': a.sessionId },
    );
    expect(own.status).toBe(202);
    await own.arrayBuffer();

    const response = await call.waitForMessage((m) => m.id === 41);
    const denial = {
      error: 'authorization_required',
      tool: 'drop_table',
      decision: 'ask',
      detail: 'user declined',
    };
    expect(response.result).toEqual({
      content: [{ type: 'text', text: JSON.stringify(denial) }],
      structuredContent: denial,
      isError: true,
    });
    expect(runs).toEqual([]);
    expect(await call.ended).toEqual({});
  });
});
