import {
  HTTP_VARIANTS,
  createHttpApp,
  initializeParams,
  type HttpTestApp,
} from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { SecurityTools, HTTP_OPTIONS, errorBody } from './security-app.js';

describe.each(HTTP_VARIANTS)('session fixation on %s', (adapter) => {
  let t: HttpTestApp;
  beforeEach(async () => {
    t = await createHttpApp(HTTP_OPTIONS, [SecurityTools], adapter);
  });
  afterEach(() => t?.close());

  it('a client-chosen Mcp-Session-Id on initialize is ignored; on other requests it is 404', async () => {
    const chosen = 'attacker-chosen-session-id-0123456789abcdef';
    const response = await t.post(t.message('initialize', initializeParams()), {
      'mcp-session-id': chosen,
    });
    expect(response.status).toBe(200);
    const minted = response.headers.get('mcp-session-id');
    expect(minted).toBeTruthy();
    expect(minted).not.toBe(chosen);
    await response.json();
    const ping = t.message('ping');
    const probe = await t.post(ping, { 'mcp-session-id': chosen });
    expect(probe.status).toBe(404);
    expect(await probe.json()).toEqual(errorBody(ping.id));
  });

  it("initialize carrying a victim's session id mints a new session; the victim's is untouched", async () => {
    const victim = await t.initialize('2025-11-25', { elicitation: {} });
    const stream = await t.openStandalone(victim.sessionId);
    await stream.at(0);
    const response = await t.post(t.message('initialize', initializeParams()), {
      'mcp-session-id': victim.sessionId,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).not.toBe(victim.sessionId);
    await response.json();

    // The victim's connection kept its state: it is still asked (elicitation capability) on
    // its own call's stream, and its standalone stream is still open.
    const call = new SseReader(
      await t.post(t.message('tools/call', { name: 'guarded', arguments: {} }), {
        'mcp-session-id': victim.sessionId,
      }),
    );
    const elicitation = await call.waitForMessage((m) => m.method === 'elicitation/create');
    await t.post(
      { jsonrpc: '2.0', id: elicitation.id, result: { action: 'decline' } },
      { 'mcp-session-id': victim.sessionId },
    );
    const answer = await call.waitForMessage((m) => m.result !== undefined);
    expect(answer.result.structuredContent.detail).toBe('user declined');
    let ended = false;
    void stream.ended.then(() => (ended = true));
    const ping = await t.post(t.message('ping'), { 'mcp-session-id': victim.sessionId });
    expect(await ping.json()).toMatchObject({ result: {} });
    expect(ended).toBe(false);
  });

  it('the id of a deleted session is never served again', async () => {
    const { sessionId } = await t.initialize();
    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId },
    });
    expect(deleted.status).toBe(200);
    const again = await t.post(t.message('initialize', initializeParams()), {
      'mcp-session-id': sessionId,
    });
    expect(again.headers.get('mcp-session-id')).not.toBe(sessionId);
    await again.json();
    const probe = await t.post(t.message('ping'), { 'mcp-session-id': sessionId });
    expect(probe.status).toBe(404);
    await probe.json();
  });
});
