import { McpHttpSessions } from '../../src/testing/index.js';
import { initializeParams, type HttpTestApp, HTTP_VARIANTS } from '../support/http-app.js';
import { wireApp, expectRefusal } from './wire-app.js';

describe.each(HTTP_VARIANTS)('session bounds on %s', (adapter) => {
  let t: HttpTestApp;

  afterEach(() => t.close());

  it('an idle session expires (404); one with an open stream does not', async () => {
    // An idle limit the interval sweeper cannot reach during the test: the test drives the sweep.
    const idleMs = 60_000;
    t = await wireApp(adapter, { bounds: { sessionIdleMs: idleMs } });
    const idle = await t.initialize();
    const streaming = await t.initialize();
    const stream = await t.openStandalone(streaming.sessionId);
    await stream.at(0);

    // The sweep as it runs once the idle limit has passed with no request on either session.
    t.app.get(McpHttpSessions).sweep(Date.now() + idleMs + 1);

    const probe = await t.post(t.message('ping'), { 'mcp-session-id': idle.sessionId });
    expect(probe.status).toBe(404);
    await probe.arrayBuffer();

    const alive = await t.post(t.message('ping'), { 'mcp-session-id': streaming.sessionId });
    expect(alive.status).toBe(200);
    await alive.json();
  });

  it('past http.maxSessions, initialize is 503 with a JSON-RPC error body; a DELETE frees a slot', async () => {
    t = await wireApp(adapter, { bounds: { maxSessions: 2 } });
    const first = await t.initialize();
    await t.initialize();
    const third = t.message('initialize', initializeParams());
    await expectRefusal(await t.post(third), 503, undefined, third.id);

    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': first.sessionId },
    });
    expect(deleted.status).toBe(200);
    await deleted.arrayBuffer();
    const again = await t.post(t.message('initialize', initializeParams()));
    expect(again.status).toBe(200);
    await again.json();
  });
});
