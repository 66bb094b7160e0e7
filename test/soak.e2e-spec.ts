import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

/*
 * The soak's short mode (scripts/soak.mjs --short): about 10 s of concurrent
 * Streamable HTTP sessions and a stdio client against the soak fixture app,
 * sessions opening and closing, mixed calls, reads, subscriptions and
 * elicitations (approved, declined, timed out). `npm run soak` is the long run.
 * The same short run in hostile mode (--short --hostile, about 17 s): drip-fed
 * bodies, session floods and parked-call floods beside the honest clients, who
 * must lose nothing, nor their latency probe; console and link drippers POST to the operator
 * console's decision and sign-out routes and to made-up webhook links without credentials,
 * trickling 99 kB of 100 kB, and each must be answered without its body being read, its
 * connection closed, none held (issue 24, finding 2). The probe's p99 is a latency bound, judged by
 * `npm run bench` (its soak-hostile row), not here. `npm run soak -- --hostile` is its long run.
 */

jest.setTimeout(180_000);

const SCRIPT = resolve(process.cwd(), 'scripts/soak.mjs');

interface SoakReport {
  ok: boolean;
  sessions: number;
  httpSessions: number;
  stdioSessions: number;
  calls: number;
  answered: number;
  lost: number;
  duplicated: number;
  crossed: number;
  wrong: number;
  lostNotifications: number;
  stdioExitFailures: number;
  elicitations: { approved: number; declined: number; timedOut: number; late: number };
  before: Record<string, number>;
  after: Record<string, number>;
  leftovers: string[];
  heapOk: boolean;
  rssOk: boolean;
  problems: string[];
  probe: { lost: number; wrong: number; answered: number; latency: { p99: number } };
  hostile?: {
    reached: Record<string, boolean>;
    closeFailures: number;
    drip: { statuses: Record<string, number> };
    consoleDrip: {
      requests: number;
      held: number;
      unexpected: number;
      leftOpen: number;
      statuses: Record<string, Record<string, number>>;
    };
    consoleChecks: Record<string, boolean>;
  };
}

/** Runs the soak script; resolves with its exit code, its JSON report and its stderr. */
function runSoak(args: string[]) {
  const child = spawn(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return {
    child,
    done: new Promise<{ code: number | null; report?: SoakReport; stderr: string }>((done) =>
      child.once('close', (code) => {
        const line = stdout.trim().split('\n').pop() ?? '';
        let report: SoakReport | undefined;
        try {
          report = JSON.parse(line) as SoakReport;
        } catch {
          report = undefined;
        }
        done({ code, report, stderr });
      }),
    ),
  };
}

describe('soak (short mode)', () => {
  let running: ReturnType<typeof runSoak> | undefined;
  afterEach(() => {
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
  });

  it('every call answered exactly once, nothing crossed, counts back to zero, memory back near baseline', async () => {
    running = runSoak(['--short', '--json']);
    const { code, report, stderr } = await running.done;
    console.log(stderr.trim());
    expect(report).toBeDefined();
    const r = report!;
    expect(r.problems).toEqual([]);
    expect(r.sessions).toBeGreaterThan(8);
    expect(r.stdioSessions).toBeGreaterThan(0);
    expect(r.calls).toBeGreaterThan(100);
    expect(r.answered).toBe(r.calls);
    expect({
      lost: r.lost,
      duplicated: r.duplicated,
      crossed: r.crossed,
      wrong: r.wrong,
      lostNotifications: r.lostNotifications,
      stdioExitFailures: r.stdioExitFailures,
    }).toEqual({
      lost: 0,
      duplicated: 0,
      crossed: 0,
      wrong: 0,
      lostNotifications: 0,
      stdioExitFailures: 0,
    });
    // Each kind of elicitation ending was exercised.
    expect(r.elicitations.approved).toBeGreaterThan(0);
    expect(r.elicitations.declined).toBeGreaterThan(0);
    expect(r.elicitations.timedOut).toBeGreaterThan(0);
    expect(r.after).toMatchObject({
      sessions: 0,
      bufferedEvents: 0,
      connections: 0,
      inflight: 0,
      pendingServerRequests: 0,
    });
    expect({ heapOk: r.heapOk, rssOk: r.rssOk }).toEqual({ heapOk: true, rssOk: true });
    expect(code).toBe(0);
  });

  it('hostile mode: honest clients and their latency probe lose nothing beside drip-fed bodies, session floods and parked-call floods, each defence reached', async () => {
    running = runSoak(['--short', '--hostile', '--json']);
    const { code, report, stderr } = await running.done;
    console.log(stderr.trim());
    expect(report).toBeDefined();
    const r = report!;
    expect(r.problems).toEqual([]);
    expect(r.calls).toBeGreaterThan(100);
    expect(r.answered).toBe(r.calls);
    expect({ lost: r.lost, duplicated: r.duplicated, crossed: r.crossed, wrong: r.wrong }).toEqual({
      lost: 0,
      duplicated: 0,
      crossed: 0,
      wrong: 0,
    });
    expect({ lost: r.probe.lost, wrong: r.probe.wrong }).toEqual({ lost: 0, wrong: 0 });
    expect(r.probe.answered).toBeGreaterThan(100);
    // Measured (printed above), and judged by the bench: a p99 bound here would judge the machine.
    expect(Number.isFinite(r.probe.latency.p99)).toBe(true);
    expect(Object.values(r.hostile!.reached).every(Boolean)).toBe(true);
    expect(r.hostile!.closeFailures).toBe(0);
    // Every console and link POST without credentials: answered as its route answers one (401,
    // 200, 400), its body unread, its connection closed after the answer; none held.
    expect(r.hostile!.consoleChecks).toEqual({
      mounted: true,
      answeredAsExpected: true,
      noneHeld: true,
      closedAfterAnswer: true,
    });
    expect(r.hostile!.consoleDrip.requests).toBeGreaterThan(0);
    expect(r.after).toMatchObject({ sessions: 0, connections: 0, inflight: 0 });
    expect(code).toBe(0);
  });
});
