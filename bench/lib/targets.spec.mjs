import { describe, expect, it } from '@jest/globals';
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
});
