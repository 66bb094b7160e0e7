import { resolve } from 'node:path';
import type { Authorizer } from '../src/index.js';
import { deferred } from './support/deferred.js';
import { createMcpApp, type McpTestApp } from './support/mcp-test-app.js';
import { leaksIn } from './support/reliability-support.js';
import { StdioScript } from './support/stdio-child.js';
import {
  FaultTools,
  callMsg,
  runs,
  signals,
  useFaultChecks,
  type Msg,
} from './faults/faults-app.js';

/*
 * Faults in process and over stdio: tools and authorizers that hang, throw or
 * reject late, and SIGTERM with a call in flight. The HTTP faults (clients that
 * vanish or read too slowly, floods) run on every adapter in test/faults/.
 */

const rejections = useFaultChecks();

describe('tools and authorizers that misbehave', () => {
  let t: McpTestApp;
  afterEach(() => t?.close());

  it('a tool that hangs past toolTimeoutMs: isError, and its signal aborts', async () => {
    signals.hangAborted = deferred<string>();
    t = await createMcpApp({ limits: { toolTimeoutMs: 100 } }, [FaultTools]);
    expect(await t.callTool('hang', {})).toEqual({
      content: [{ type: 'text', text: 'Tool hang timed out' }],
      isError: true,
    });
    expect(await signals.hangAborted.promise).toBe('tool timed out');
    expect(await t.request('ping')).toMatchObject({ result: {} });
  });

  it('a tool that rejects after its timeout: one isError answer, no unhandled rejection, no leak', async () => {
    signals.lateRejected = deferred();
    t = await createMcpApp({ limits: { toolTimeoutMs: 100 } }, [FaultTools]);
    const result = await t.callTool('reject_late', {});
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Tool reject_late timed out' }],
      isError: true,
    });
    await signals.lateRejected.promise;
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
