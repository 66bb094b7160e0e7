import { describe, expect, it } from '@jest/globals';
import { HOSTILE_BODIES } from '../workloads/hostile-body.mjs';
import { checkTargets } from './targets.mjs';

const labels = { 'warden-http': 'mcp-warden', 'warden-otel-http': 'otel' };
const row = (rate, serverCpu = 100) => ({ rate, serverCpu });

describe('bench targets', () => {
  it('a row with no bound says measured, never met', () => {
    const lines = checkTargets(
      {
        'throughput-http-otel': { 'warden-otel-http': row(900), 'warden-http': row(1000) },
        'throughput-http-modern': {
          'warden-modern-http': row(100),
          'sdk2-modern-http': row(1000),
          'warden-http': row(1000),
        },
      },
      labels,
    );
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(/^- \*\*measured\*\*: /);
  });

  describe('the Cedar policy targets', () => {
    const cedarLabels = { 'warden-http': 'mcp-warden', 'warden-cedar-http': 'cedar' };

    it('a Cedar policy is met at 0.85× the closures and not met below; a new argument every call is measured', () => {
      const at = (rate) => ({
        'throughput-http-cedar': { 'warden-cedar-http': row(rate), 'warden-http': row(1000) },
      });
      expect(checkTargets(at(850), cedarLabels)).toEqual([
        expect.stringMatching(/^- \*\*met\*\*: /),
      ]);
      expect(checkTargets(at(849), cedarLabels)).toEqual([
        expect.stringMatching(/^- \*\*not met\*\*: /),
      ]);
      const varied = {
        'throughput-http-cedar-varied': {
          'warden-cedar-varied-http': row(400),
          'warden-http': row(1000),
        },
      };
      expect(checkTargets(varied, cedarLabels)).toEqual([
        expect.stringMatching(/^- \*\*measured\*\*: .*0\.40× the same server/),
      ]);
    });

    it('a cached decision is met within 15 µs; the evaluated one is measured', () => {
      const cpu = (cachedUs) => ({
        'policy-decision-cpu': {
          'warden-cedar-decide': { cachedUs, cachedInputUs: 10, variedUs: 90 },
        },
      });
      const [cached, varied] = checkTargets(cpu(15), cedarLabels);
      expect(cached).toMatch(/^- \*\*met\*\*: .*15\.0 µs/);
      expect(varied).toMatch(/^- \*\*measured\*\*: .*90\.0 µs.*cached: 10\.0 µs/);
      expect(checkTargets(cpu(15.1), cedarLabels)[0]).toMatch(/^- \*\*not met\*\*: /);
    });

    it('a reload stall is met within 50 ms and not met past it', () => {
      const stall = (maxStallMs) => ({
        'policy-reload-stall': {
          'warden-cedar-reload': { maxStallMs, maxGapMs: maxStallMs, reloadMs: 300, bootMs: 900 },
        },
      });
      expect(checkTargets(stall(50), cedarLabels)).toEqual([
        expect.stringMatching(/^- \*\*met\*\*: .*the reload took 300 ms/),
      ]);
      expect(checkTargets(stall(51), cedarLabels)).toEqual([
        expect.stringMatching(/^- \*\*not met\*\*: /),
      ]);
    });

    it('the bundled Cedar cold start has a 1.3× time bound and no RSS bound', () => {
      const cold = (firstResult) => ({
        'cold-start-stdio': {
          'sdk2-stdio': { firstResult: 100, rss: 50 },
          'warden-stdio-cedar-bundled': { firstResult, rss: 100 },
        },
      });
      const labelled = { 'warden-stdio-cedar-bundled': 'cedar bundled' };
      expect(checkTargets(cold(130), labelled)).toEqual([
        expect.stringMatching(/^- \*\*met\*\*: .*\(≤ 1\.3×\), RSS 2\.00× \(measured, no bound\)/),
      ]);
      expect(checkTargets(cold(131), labelled)[0]).toMatch(/^- \*\*not met\*\*: /);
    });
  });

  describe('the tasks targets', () => {
    const taskRow = (rate) => ({ rate, serverCpu: 250, driverCpu: 30, polls: 1 });

    it('tasks are met at 0.3× the plain calls of the same tool and not met below', () => {
      const at = (rate) => ({
        'throughput-http-tasks': {
          'warden-tasks-http': taskRow(rate),
          'warden-task-call-http': row(10_000, 90),
        },
      });
      const [met] = checkTargets(at(3_000), labels);
      expect(met).toMatch(/^- \*\*met\*\*: .*0\.30× the same tool's plain tools\/call/);
      expect(met).toContain(
        '3,000/s tasks vs 10,000/s calls, server CPU per task 250 µs vs per call 90 µs',
      );
      expect(checkTargets(at(2_999), labels)).toEqual([
        expect.stringMatching(/^- \*\*not met\*\*: /),
      ]);
    });

    it('the cluster row on Redis is measured beside the in-memory tasks, never met', () => {
      const lines = checkTargets(
        {
          'throughput-http-tasks': {
            'warden-tasks-http': taskRow(3_000),
            'warden-task-call-http': row(10_000, 90),
            'warden-cluster-tasks-http': { ...taskRow(1_500), serverCpu: 400, redisCpu: 120 },
          },
        },
        labels,
      );
      expect(lines).toHaveLength(2);
      expect(lines[1]).toMatch(/^- \*\*measured\*\*: HTTP tools as tasks in cluster mode/);
      expect(lines[1]).toContain(
        "0.50× the in-memory store's tasks (measured, no bound), 0.15× the plain tools/call; " +
          "1,500/s tasks vs 3,000/s, server CPU per task 400 µs vs 250 µs, and Redis's 120 µs",
      );
    });

    it('heap per idle task is met within 2 KB and not met past it', () => {
      const heap = (taskHeap) => ({
        'memory-http-tasks': { 'warden-tasks-http': { taskHeap, taskRss: 3_000 } },
      });
      expect(checkTargets(heap(2048), labels)).toEqual([
        expect.stringMatching(/^- \*\*met\*\*: .*2048 bytes \(≤ 2048 bytes\); RSS 3000 bytes/),
      ]);
      expect(checkTargets(heap(2049), labels)[0]).toMatch(/^- \*\*not met\*\*: /);
    });
  });

  it("the soak's honest p99 is met below 50 ms and not met at or above it", () => {
    const soak = (p99) => ({ 'soak-hostile': { 'warden-http': { p50: 1, p99, calls: 100 } } });
    expect(checkTargets(soak(49.9), labels)).toEqual([expect.stringMatching(/^- \*\*met\*\*: /)]);
    expect(checkTargets(soak(50), labels)).toEqual([expect.stringMatching(/^- \*\*not met\*\*: /)]);
  });

  describe('the hostile-body target', () => {
    /** Every body at `busy` ms busy, `wall` ms wall, for one row. */
    const row = (busy, wall) =>
      Object.fromEntries(
        HOSTILE_BODIES.flatMap(({ key }) => [
          [key, busy],
          [`${key}Delay`, wall],
          [`${key}Parse`, 1],
        ]),
      );
    const check = (warden, bare) =>
      checkTargets(
        { 'hostile-body-http': { 'warden-http': warden, ...(bare ? { 'bare-http': bare } : {}) } },
        { 'warden-http': 'mcp-warden' },
      );

    it('is met when every wall delay is within 50 ms, and reports both figures', () => {
      const [line] = check(row(20, 45), row(5, 10));
      expect(line).toMatch(/^- \*\*met\*\*: /);
      expect(line).toContain('wall 45 ms, busy 20 ms');
    });

    it('a wall delay over 50 ms with a wall excess no more than the bare row’s is judged on busy time', () => {
      const [line] = check(row(40, 58), row(10, 30));
      expect(line).toMatch(/^- \*\*met\*\*: /);
      expect(line).toContain("judged on busy time: wall excess 18 ms vs the bare row's 20 ms");
    });

    it('is not met when the wall excess is more than the machine’s, or there is no bare row', () => {
      expect(check(row(40, 80), row(10, 20))[0]).toMatch(
        /^- \*\*not met\*\*: .*over: wall excess 40 ms/,
      );
      expect(check(row(40, 58))[0]).toMatch(/^- \*\*not met\*\*: .*no bare row in this run/);
    });

    it('is not met when the busy time itself is over 50 ms', () => {
      expect(check(row(55, 60), row(10, 60))[0]).toMatch(/^- \*\*not met\*\*: /);
    });
  });

  it('the console push is met at a p99 within 1 s, not met past it', () => {
    const push = (p99) => ({ 'console-push': { 'warden-http': { p50: 1, p99, max: p99 } } });
    expect(checkTargets(push(1000), labels)).toEqual([expect.stringMatching(/^- \*\*met\*\*: /)]);
    expect(checkTargets(push(1000.5), labels)).toEqual([
      expect.stringMatching(/^- \*\*not met\*\*: /),
    ]);
  });

  describe("the notes service against its floor's twin", () => {
    const serviceLabels = { 'service-http': 'notes service' };
    // Only the service rows: the framework's own bounds need the SDK and bare rows.
    const at = (rate) => ({
      'throughput-http': { 'service-http': row(rate), 'service-http@against': row(1000) },
    });
    // The floor's verdict alone: the service's CPU bound is judged in every run (below).
    const checkTargetsFloor = (...args) =>
      checkTargets(...args).filter((line) => !line.includes('(≤ 200 µs)'));

    it('is met at the same calls/s as the 90b0bca twin and not met below', () => {
      expect(checkTargetsFloor(at(1000), serviceLabels, '90b0bca')).toEqual([
        expect.stringMatching(
          /^- \*\*met\*\*: .*notes service: 1\.00× the calls\/s of its 90b0bca twin/,
        ),
      ]);
      expect(checkTargetsFloor(at(999), serviceLabels, '90b0bcaf')).toEqual([
        expect.stringMatching(/^- \*\*not met\*\*: .*: 0\.999× the calls\/s/),
      ]);
    });

    it('shows a third decimal where two would read as the bound itself', () => {
      expect(checkTargetsFloor(at(996), serviceLabels, '90b0bca')).toEqual([
        expect.stringMatching(/^- \*\*not met\*\*: .*: 0\.996× the calls\/s/),
      ]);
      // Away from a bound, two decimals as before; and past 3×, where no bound sits.
      expect(checkTargetsFloor(at(1234), serviceLabels, '90b0bca')).toEqual([
        expect.stringMatching(/^- \*\*met\*\*: .*: 1\.23× the calls\/s/),
      ]);
      expect(checkTargetsFloor(at(7301), serviceLabels, '90b0bca')).toEqual([
        expect.stringMatching(/^- \*\*met\*\*: .*: 7\.30× the calls\/s/),
      ]);
    });

    it('holds its server CPU a call to 200 µs in every run, against a ref or not', () => {
      const cpu = (serverCpu) => ({ 'throughput-http': { 'service-http': row(1000, serverCpu) } });
      expect(checkTargets(cpu(200), serviceLabels)).toEqual([
        '- **met**: HTTP tools/call, 32 in flight, notes service: server CPU per call 200.0 µs (≤ 200 µs)',
      ]);
      expect(checkTargets(cpu(200.04), serviceLabels, '40a0feb')).toEqual([
        expect.stringMatching(/^- \*\*not met\*\*: .*server CPU per call 200\.04 µs \(≤ 200 µs\)$/),
      ]);
      expect(checkTargets(at(1000), serviceLabels, '90b0bca')).toHaveLength(2);
    });

    it('is no verdict against another ref, nor without one', () => {
      expect(checkTargetsFloor(at(2000), serviceLabels, '40a0feb')).toEqual([]);
      expect(checkTargetsFloor(at(2000), serviceLabels)).toEqual([]);
    });
  });
});
