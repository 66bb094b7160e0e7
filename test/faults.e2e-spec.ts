import { jest } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { filter, firstValueFrom, type Observable } from 'rxjs';
import {
  Authorizers,
  McpServer,
  McpTool,
  type Authorizer,
  type McpAuditEvent,
  type McpModuleOptions,
  type McpToolContext,
} from '../src/index.js';
import { McpHttpSessions } from '../src/testing/index.js';
import { createHttpApp, initializeParams, type HttpTestApp } from './support/http-app.js';
import { deferred } from './support/deferred.js';
import { SseReader } from './support/http-sse.js';
import { createMcpApp, type McpTestApp } from './support/mcp-test-app.js';
import {
  INTERNAL_SECRET,
  ServerSockets,
  leaksIn,
  recordUnhandledRejections,
  within,
} from './support/reliability-support.js';
import { StdioScript } from './support/stdio-child.js';

/*
 * Faults: clients that vanish or read too slowly, tools and authorizers that
 * hang, throw or reject late, SIGTERM with a call in flight, and floods of
 * sessions and requests. Each test checks that the fault stays contained: the
 * affected call or stream ends in a bounded, documented way, nothing leaks
 * (sessions, connections, pending server→client requests), and every other
 * client goes on being served.
 */

jest.setTimeout(30_000);

type Msg = Record<string, any>;

/** Tool runs, so a test can tell whether a tool body executed. */
const runs: string[] = [];
let gate = deferred();
/** Set by `hang` when its signal aborts. */
let hangAborted = deferred<string>();
/** Resolved once `reject_late` has rejected (after its call timed out). */
let lateRejected = deferred();

@Injectable()
class FaultTools {
  @McpTool({ description: 'Needs approval', input: { type: 'object' } })
  guarded() {
    runs.push('guarded');
    return 'guarded ran';
  }

  @McpTool({ description: 'Never finishes; records its abort', input: { type: 'object' } })
  hang(_args: object, ctx: McpToolContext) {
    return new Promise((_, reject) => {
      ctx.signal.addEventListener('abort', () => {
        hangAborted.resolve(String((ctx.signal.reason as Error)?.message));
        reject(ctx.signal.reason);
      });
    });
  }

  @McpTool({ description: 'Rejects only after its call timed out', input: { type: 'object' } })
  reject_late(_args: object, ctx: McpToolContext) {
    return new Promise((_, reject) => {
      ctx.signal.addEventListener('abort', () =>
        setImmediate(() => {
          reject(new Error(`${INTERNAL_SECRET} late`));
          lateRejected.resolve();
        }),
      );
    });
  }

  @McpTool({ description: 'Resolves only after its call timed out', input: { type: 'object' } })
  resolve_late(_args: object, ctx: McpToolContext) {
    return new Promise((done) => {
      ctx.signal.addEventListener('abort', () => setImmediate(() => done('too late')));
    });
  }

  @McpTool({ description: 'Throws internal text at once', input: { type: 'object' } })
  explode(): never {
    throw new Error(`${INTERNAL_SECRET} at /srv/node_modules/db/index.js:10:3`);
  }

  @McpTool({ description: 'Waits for the test to open the gate', input: { type: 'object' } })
  async wait() {
    await gate.promise;
    return 'waited';
  }

  @McpTool({ description: 'Answers at once', input: { type: 'object' } })
  quick() {
    runs.push('quick');
    return 'quick';
  }
}

const toolPolicy: Authorizer = (name) =>
  name === 'guarded' ? { kind: 'ask', prompt: 'Run guarded?' } : { kind: 'allow' };

const HTTP_OPTIONS: Partial<McpModuleOptions> = {
  authorizer: toolPolicy,
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
  elicitationTimeoutMs: 10_000,
};

const callMsg = (id: number | string, name: string, args: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A response's JSON body. */
async function bodyOf(response: Response): Promise<Msg> {
  return (await response.json()) as Msg;
}

/** The counts that must return to zero once every client is gone. */
function leftovers(app: HttpTestApp['app']) {
  return {
    sessions: app.get(McpHttpSessions).size,
    bufferedEvents: app.get(McpHttpSessions).bufferedEvents(),
    connections: app.get(McpServer).stats().connections,
    pendingServerRequests: app.get(McpServer).stats().pendingClientRequests,
  };
}
const NOTHING_LEFT = { sessions: 0, bufferedEvents: 0, connections: 0, pendingServerRequests: 0 };

/** The next audit event matching `test`. */
function nextAudit(
  audit$: Observable<McpAuditEvent>,
  test: (event: McpAuditEvent) => boolean,
): Promise<McpAuditEvent> {
  return firstValueFrom(audit$.pipe(filter(test)));
}

let rejections: ReturnType<typeof recordUnhandledRejections>;
beforeEach(() => {
  runs.length = 0;
  rejections = recordUnhandledRejections();
});
afterEach(() => {
  rejections.stop();
  expect(rejections.seen).toEqual([]);
});

describe('a client that disconnects mid-stream', () => {
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
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools]);
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
    t = await createHttpApp({ ...HTTP_OPTIONS, limits: { sessionIdleMs: 200 } }, [FaultTools]);
    const server = t.app.get(McpServer);
    const abort = new AbortController();
    await parkGuardedCall(abort);
    const closed = nextAudit(server.audit$, (e) => e.seam === 'elicitation');
    const gone = t.nextSocketClose();
    abort.abort();
    await gone;
    // Time is the property: no request and no open stream for sessionIdleMs ends the session
    // (README, Limits). 3 s is 15 idle periods, and far less than the elicitation timeout.
    const outcome = await within(closed, 3_000, 'the parked call of an expired session');
    expect(outcome).toMatchObject({ decision: 'deny', detail: 'connection closed' });
    expect(leftovers(t.app)).toEqual(NOTHING_LEFT);
    expect(runs).toEqual([]);
  });

  it("DELETE while a parked call's POST stream is still open ends that stream too", async () => {
    t = await createHttpApp(HTTP_OPTIONS, [FaultTools]);
    const { sessionId, stream } = await parkGuardedCall();
    const deleted = await t.fetch('/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': sessionId },
    });
    expect(deleted.status).toBe(200);
    // DESIGN.md §4: DELETE ends a session; a stream of an ended session must not stay open.
    await within(stream.ended, 2_000, 'the POST stream of a deleted session to end');
    expect(leftovers(t.app)).toEqual(NOTHING_LEFT);
    expect(runs).toEqual([]);
  });
});

describe('a slow SSE consumer', () => {
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
    t = await createHttpApp({ ...HTTP_OPTIONS, limits: { maxQueuedEvents: MAX_QUEUED } }, [
      FaultTools,
    ]);
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

describe('tools and authorizers that misbehave', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('a tool that hangs past toolTimeoutMs: isError, and its signal aborts', async () => {
    hangAborted = deferred<string>();
    t = await createMcpApp({ limits: { toolTimeoutMs: 100 } }, [FaultTools]);
    expect(await t.callTool('hang', {})).toEqual({
      content: [{ type: 'text', text: 'Tool hang timed out' }],
      isError: true,
    });
    expect(await hangAborted.promise).toBe('tool timed out');
    expect(await t.request('ping')).toMatchObject({ result: {} });
  });

  it('a tool that rejects after its timeout: one isError answer, no unhandled rejection, no leak', async () => {
    lateRejected = deferred();
    t = await createMcpApp({ limits: { toolTimeoutMs: 100 } }, [FaultTools]);
    const result = await t.callTool('reject_late', {});
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Tool reject_late timed out' }],
      isError: true,
    });
    await lateRejected.promise;
    // Let the rejection's microtasks and the unhandled-rejection check run (a yield, not a wait).
    await new Promise((done) => setImmediate(done));
    expect(rejections.seen).toEqual([]);
    expect(await t.request('ping')).toMatchObject({ result: {} });
  });

  it('a tool that resolves after its timeout: the timeout answer stands, exactly once', async () => {
    t = await createMcpApp({ limits: { toolTimeoutMs: 100 } }, [FaultTools]);
    const outbound: Msg[] = [];
    const subscription = t.server.subscribe('late').subscribe((m) => outbound.push(m as Msg));
    await t.initialize('late');
    const reply = (await t.server.handleMessage(callMsg(5, 'resolve_late'), 'late')) as Msg;
    expect(reply.result).toEqual({
      content: [{ type: 'text', text: 'Tool resolve_late timed out' }],
      isError: true,
    });
    expect(await t.request('ping', undefined, 'late')).toMatchObject({ result: {} });
    expect(outbound.filter((m) => m.id === 5)).toEqual([]);
    subscription.unsubscribe();
  });

  it('a tool that throws: isError with a safe message, no internal text', async () => {
    t = await createMcpApp({}, [FaultTools]);
    const result = await t.callTool('explode', {});
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Tool explode failed' }],
      isError: true,
    });
    expect(leaksIn(JSON.stringify(result))).toEqual([]);
  });

  it('a tool authorizer that hangs: deny authorizer_timeout; its late allow runs nothing', async () => {
    const late = deferred<{ kind: 'allow' }>();
    const hanging: Authorizer = () => late.promise;
    t = await createMcpApp({ authorizer: hanging, limits: { authorizerTimeoutMs: 100 } }, [
      FaultTools,
    ]);
    const result = await t.callTool('quick', {});
    expect(result.structuredContent).toEqual({
      error: 'authorization_required',
      tool: 'quick',
      decision: 'deny',
      detail: 'authorizer_timeout',
    });
    late.resolve({ kind: 'allow' });
    await late.promise;
    expect(await t.request('ping')).toMatchObject({ result: {} });
    expect(runs).toEqual([]);
  });

  it('a read authorizer that hangs: -31403 with detail authorizer_timeout', async () => {
    const hanging: Authorizer = () => new Promise(() => undefined);
    t = await createMcpApp({ readAuthorizer: hanging, limits: { authorizerTimeoutMs: 100 } }, [
      FaultTools,
    ]);
    const reply = await t.request('tools/list');
    expect(reply.error).toEqual({
      code: -31403,
      message: 'authorization_required: tools/list',
      data: { error: 'authorization_required', method: 'tools/list', detail: 'authorizer_timeout' },
    });
  });
});

describe('SIGTERM with a call in flight (stdio)', () => {
  const SCRIPT = resolve(process.cwd(), 'test/fixtures/faults/faults-stdio.mjs');
  let child: StdioScript | undefined;
  afterEach(() => child?.dispose());

  it('a late rejection does not crash it; SIGTERM drains the call in flight, then exits 0', async () => {
    child = new StdioScript(SCRIPT, { FAULTS_TOOL_TIMEOUT_MS: '500' });
    await child.initialize();

    // reject_late times out (500 ms), then rejects; late_status waits for that rejection.
    const timedOut = await child.request('tools/call', { name: 'reject_late', arguments: {} });
    expect(timedOut.result).toEqual({
      content: [{ type: 'text', text: 'Tool reject_late timed out' }],
      isError: true,
    });
    const status = await child.request('tools/call', { name: 'late_status', arguments: {} });
    expect(status.result.content).toEqual([{ type: 'text', text: 'late rejections: 1' }]);
    expect(await child.request('ping')).toMatchObject({ result: {} });

    // A slow call, in flight when SIGTERM arrives: it is answered, then the process exits 0.
    const started = child.waitFor((m) => m.method === 'notifications/message');
    const answer = child.request('tools/call', { name: 'slow', arguments: { ms: 150 } });
    await started;
    child.process.kill('SIGTERM');
    expect((await answer).result).toEqual({
      content: [{ type: 'text', text: 'slow done after 150 ms' }],
    });
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr.text).not.toContain('UNHANDLED_REJECTION');
    // Every stdout line was a JSON-RPC message (nothing else on stdout).
    expect(() => child!.messages()).not.toThrow();
  });
});

describe('floods', () => {
  let t: HttpTestApp;
  afterEach(() => t?.close());

  it('a flood of sessions: past maxSessions, 503 with a JSON-RPC body; live sessions keep working', async () => {
    t = await createHttpApp({ ...HTTP_OPTIONS, limits: { maxSessions: 3 } }, [FaultTools]);
    const first = await t.initialize();
    const flood = await Promise.all(
      Array.from({ length: 12 }, () => t.post(t.message('initialize', initializeParams()))),
    );
    const statuses = flood.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, ...Array(10).fill(503)]);
    for (const refused of flood.filter((r) => r.status === 503)) {
      expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await refused.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: expect.any(Number), message: expect.stringMatching(/too many sessions/) },
      });
    }
    const admitted = flood.filter((r) => r.status === 200);
    const ids = [first.sessionId, ...admitted.map((r) => r.headers.get('mcp-session-id')!)];
    for (const r of admitted) await r.json();
    for (const sessionId of ids) {
      const call = await t.post(callMsg(2, 'quick'), { 'mcp-session-id': sessionId });
      expect((await bodyOf(call)).result.content).toEqual([{ type: 'text', text: 'quick' }]);
    }
    expect(t.app.get(McpHttpSessions).size).toBe(3);
  });

  it('a flood of requests on one session: -31429 past maxInFlightPerConnection; another session is unaffected', async () => {
    gate = deferred();
    t = await createHttpApp({ ...HTTP_OPTIONS, limits: { maxInFlightPerConnection: 2 } }, [
      FaultTools,
    ]);
    const a = await t.initialize();
    const b = await t.initialize();
    const headersA = { 'mcp-session-id': a.sessionId };
    const held = [t.post(callMsg(1, 'wait'), headersA), t.post(callMsg(2, 'wait'), headersA)];
    // The refusal is only certain once both calls are in flight: probe until one is refused.
    let refused: Msg | undefined;
    for (let id = 3; !refused; id++) {
      expect(id).toBeLessThan(1_000);
      const reply = (await (await t.post(callMsg(id, 'quick'), headersA)).json()) as Msg;
      if (reply.error) refused = reply;
    }
    expect(refused).toEqual({
      jsonrpc: '2.0',
      id: expect.any(Number),
      error: { code: -31429, message: 'Too many requests in flight' },
    });
    const other = await t.post(callMsg(9, 'quick'), { 'mcp-session-id': b.sessionId });
    expect((await bodyOf(other)).result.content).toEqual([{ type: 'text', text: 'quick' }]);
    gate.resolve();
    for (const response of held) {
      expect((await bodyOf(await response)).result.content).toEqual([
        { type: 'text', text: 'waited' },
      ]);
    }
    const again = await t.post(callMsg(10, 'quick'), headersA);
    expect((await bodyOf(again)).result.content).toEqual([{ type: 'text', text: 'quick' }]);
  });
});
