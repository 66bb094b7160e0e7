import { GENESIS, lineDigest } from '../chain/audit-record.js';
import { verifyChains } from './chain-verifier.js';

/* `count` plain records of one chain, as stored lines. */
function chain(count: number) {
  const stored = [];
  let prev = GENESIS;
  for (let seq = 1; seq <= count; seq += 1) {
    const line = JSON.stringify({ id: `r${seq}`, kind: 'decision', instance: 'i', seq, prev });
    stored.push({ where: `line ${seq}`, line });
    prev = lineDigest(line);
  }
  return stored;
}

describe('verifyChains', () => {
  it('verifies a chain longer than a call may spread arguments (a month of records)', () => {
    const [report] = verifyChains(chain(200_000));
    expect(report).toMatchObject({ records: 200_000, lastSeq: 200_000, breaks: [] });
  });

  it('names one record of many copies at a position as the chain’s, the others inserted', () => {
    const stored = chain(3);
    const copies = Array.from({ length: 1_000 }, (_, i) => ({
      where: `copy ${i}`,
      line: stored[1]!.line.replace('"r2"', `"c${i}"`),
    }));
    const [report] = verifyChains([stored[0]!, ...copies, stored[1]!, stored[2]!]);
    expect(report!.breaks).toEqual([
      expect.objectContaining({ kind: 'inserted', where: 'copy 0', seq: 2 }),
    ]);
  });
});
