import { describe, expect, it } from '@jest/globals';
import { pooledRatios } from './pooled.mjs';

const run = (rate, serverCpu = 50) => ({ rate, serverCpu });
const report = (name, a, b, workload = 'throughput-http') => ({
  name,
  data: {
    runs: { [workload]: { fast: a.map((rate) => run(rate)), base: b.map((rate) => run(rate)) } },
  },
});
const query = { workload: 'throughput-http', row: 'fast', versus: 'base', key: 'rate' };

describe('pooled ratios', () => {
  it('pairs the n-th run of each row, pools every report, and takes the median and quartiles', () => {
    const pooled = pooledRatios(
      [report('one', [90, 100, 80], [100, 100, 100]), report('two', [110, 60], [100, 100])],
      query,
    );
    expect(pooled.perReport.map((r) => r.ratios)).toEqual([
      [0.9, 1, 0.8],
      [1.1, 0.6],
    ]);
    expect(pooled.count).toBe(5);
    expect(pooled.median).toBeCloseTo(0.9);
    // Sorted 0.6 0.8 | 0.9 | 1 1.1: the halves' medians.
    expect(pooled.lower).toBeCloseTo(0.7);
    expect(pooled.upper).toBeCloseTo(1.05);
    expect(pooled.atLeastOne).toBe(2);
  });

  it('leaves out reports without both rows, and runs one row lacks', () => {
    const pooled = pooledRatios(
      [
        report('other workload', [50], [100], 'throughput-stdio'),
        { name: 'one row', data: { runs: { 'throughput-http': { fast: [run(1)] } } } },
        { name: 'not a report', data: null },
        report('short', [120, 130, 140], [100]),
      ],
      query,
    );
    expect(pooled.perReport).toEqual([{ name: 'short', ratios: [1.2] }]);
    expect(pooled.median).toBeCloseTo(1.2);
  });

  it('reads the figure it is asked for, and reports nothing when nothing matched', () => {
    const cpu = pooledRatios([report('one', [1], [1])], { ...query, key: 'serverCpu' });
    expect(cpu.median).toBe(1);
    expect(pooledRatios([], query)).toEqual({ perReport: [], count: 0 });
  });
});
