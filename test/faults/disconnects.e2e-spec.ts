import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { McpServer } from '../../src/index.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { ServerSockets, within } from '../support/reliability-support.js';
import {
  FaultTools,
  HTTP_OPTIONS,
  NOTHING_LEFT,
  bodyOf,
  callMsg,
  leftovers,
  nextAudit,
  runs,
  useFaultChecks,
  type Msg,
} from './faults-app.js';

/* Faults over HTTP: clients that vanish mid-stream, and a reader too slow for its stream. */

useFaultChecks();

describe.each(ADAPTERS)('a client that disconnects mid-stream on %s', (adapter) => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  /** Opens a session that can be asked, POSTs `guarded` and reads up to its elicitation. */
  async function parkGuardedCall(abort?: AbortController) {
    const { sessionId } = await t.initialize('2025-11-25', { elicitation: {} });
    const stream = new SseReader(
      await t.post(callMsg(1, 'guarded'), { 'mcp-session-id': sessionId }, abort),
    );
    const elicitation = await stream.waitForMessage((m) => m.method === 'elicitation/create');
    return { sessionId, stream, elicitation };
  }

  it('aborted POST of a parked call, then DELETE: the parked call closes, nothing leaks', async () => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools], adapter);
    const server = t.app.get(McpServer);
    const abort = new AbortController();
    const { sessionId } = await parkGuardedCall(abort);
    expect(t.app.get(McpServer).stats().pendingClientRequests).toBe(1);

    const gone = t.nextSocketClose();
    abort.abort();
    await gone; // the server has seen the client go
    const closed = nextAudit(server.audit$, (e) => e.seam === 'elicitation');
    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId },
    });
    expect(deleted.status).toBe(200);
    expect(await closed).toMatchObject({ decision: 'deny', detail: 'connection closed' });
    expect(leftovers(t.app)).toEqual(NOTHING_LEFT);
    expect(runs).toEqual([]);
  });

  it('aborted POST of a parked call: the idle session expires and the parked call closes with it', async () => {
    // elicitationTimeoutMs (10 s) is far longer than sessionIdleMs: the expiry must close the call.
    t = await createHttpApp(
      { ...HTTP_OPTIONS, limits: { sessionIdleMs: 200 } },
      [FaultTools],
      adapter,
    );
    const server = t.app.get(McpServer);
    const abort = new AbortController();
    await parkGuardedCall(abort);
    const closed = nextAudit(server.audit$, (e) => e.seam === 'elicitation');
    const gone = t.nextSocketClose();
    abort.abort();
    await gone;
    // Time is the property: no request and no open stream for sessionIdleMs ends the session
    // (docs/configuration.md, Limits). 3 s is 15 idle periods, and far less than the elicitation timeout.
    const outcome = await within(closed, 3_000, 'the parked call of an expired session');
    expect(outcome).toMatchObject({ decision: 'deny', detail: 'connection closed' });
    expect(leftovers(t.app)).toEqual(NOTHING_LEFT);
    expect(runs).toEqual([]);
  });

  it("DELETE while a parked call's POST stream is still open ends that stream too", async () => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools], adapter);
    const { sessionId, stream } = await parkGuardedCall();
    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId },
    });
    expect(deleted.status).toBe(200);
    // docs/http.md: DELETE ends a session; a stream of an ended session must not stay open.
    await within(stream.ended, 2_000, 'the POST stream of a deleted session to end');
    expect(leftovers(t.app)).toEqual(NOTHING_LEFT);
    expect(runs).toEqual([]);
  });
});

describe.each(ADAPTERS)('a slow SSE consumer on %s', (adapter) => {
  let t: HttpTestApp;
  let sockets: ServerSockets;
  let slow: Socket | undefined;
  afterEach(async () => {
    slow?.destroy();
    sockets?.stop();
    await t?.close();
  });

  it('past maxQueuedEvents its stream is dropped; the session and a fast reader go on', async () => {
    const MAX_QUEUED = 32;
    t = await createHttpApp(
      { ...HTTP_OPTIONS, limits: { maxQueuedEvents: MAX_QUEUED } },
      [FaultTools],
      adapter,
    );
    const server = t.app.get(McpServer);
    sockets = new ServerSockets(t.app.getHttpServer() as Server);
    const a = await t.initialize();
    const b = await t.initialize();
    // Large notifications fill the socket buffers of a reader that stops reading.
    const uri = `big://${'u'.repeat(64 * 1024)}`;
    for (const { sessionId } of [a, b]) {
      const subscribed = await t.post(t.message('resources/subscribe', { uri }), {
        'mcp-session-id': sessionId,
      });
      expect((await bodyOf(subscribed)).result).toEqual({});
    }

    // A: a raw socket that reads the response head, then never reads again.
    slow = connect(t.port, '127.0.0.1');
    await once(slow, 'connect');
    const serverSide = await sockets.of(slow.localPort!);
    const serverClosed = once(serverSide, 'close');
    slow.write(
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${t.port}\r\nAccept: text/event-stream\r\n` +
        `Mcp-Session-Id: ${a.sessionId}\r\n\r\n`,
    );
    const [head] = (await once(slow, 'data')) as [Buffer];
    expect(head.toString('latin1')).toMatch(/^HTTP\/1\.1 200/);
    slow.pause();

    // B: a reader that keeps up.
    const fast = await t.openStandalone(b.sessionId);
    await fast.at(0);
    const isUpdate = (m: Msg) => m.method === 'notifications/resources/updated';

    // Bursts smaller than the bound; the next burst only once B has read the last one, so
    // B's writes are always flushed. A's stay queued until the bound drops its stream.
    const BURST = MAX_QUEUED / 2;
    let sent = 0;
    let dropped = false;
    void serverClosed.then(() => (dropped = true));
    while (!dropped) {
      expect(sent).toBeLessThan(2_000); // 2 000 × 64 KiB would be far past any socket buffer
      for (let i = 0; i < BURST; i++) server.notify('notifications/resources/updated', { uri });
      sent += BURST;
      await fast.at(sent); // event 0 is the priming event, then one event per update
    }
    await serverClosed;

    // B read everything and its stream is still open; both sessions still work.
    expect(fast.messages.filter(isUpdate)).toHaveLength(sent);
    let fastEnded = false;
    void fast.ended.then(() => (fastEnded = true));
    for (const { sessionId } of [a, b]) {
      const call = await t.post(callMsg(7, 'quick'), { 'mcp-session-id': sessionId });
      expect((await bodyOf(call)).result.content).toEqual([{ type: 'text', text: 'quick' }]);
    }
    expect(fastEnded).toBe(false);
    // A's dropped stream is gone: a new GET is served (not 409), and carries new notifications.
    const again = await t.openStandalone(a.sessionId);
    await again.at(0);
    server.notify('notifications/resources/updated', { uri });
    await again.waitForMessage(isUpdate);
  });
});
