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
});
