import { generateKeyPairSync } from 'node:crypto';
import { GENESIS, lineDigest } from '../chain/audit-record.js';
import { signCheckpoint } from '../chain/checkpoint-note.js';
import { verifyChains } from './chain-verifier.js';

const { privateKey } = generateKeyPairSync('ed25519');

/* A chain of `texts` (plain records), a checkpoint signed after the first `signedAfter`. */
function chain(texts: string[], signedAfter: number) {
  const lines: string[] = [];
  let prev = GENESIS;
  let note = '';
  const push = (fields: Record<string, unknown>) => {
    const line = JSON.stringify({ ...fields, instance: 'i', seq: lines.length + 1, prev });
    lines.push(line);
    prev = lineDigest(line);
  };
  texts.forEach((text, index) => {
    push({ id: `r${index}`, kind: 'decision', name: text });
    if (index + 1 === signedAfter) {
      note = signCheckpoint(
        { origin: 'mcp-warden/s/i', size: lines.length, head: prev },
        'k',
        privateKey,
      );
      push({ id: 'cp', kind: 'checkpoint', time: 't', checkpoint: note });
    }
  });
  return { lines, published: [{ instance: 'i', seq: signedAfter + 1, note }] };
}

const stored = (lines: string[]) => lines.map((line, i) => ({ where: `line ${i + 1}`, line }));

describe('published checkpoints', () => {
  it('pass a log that holds what they signed', () => {
    const { lines, published } = chain(['a', 'b', 'c', 'd'], 2);
    const [report] = verifyChains(stored(lines), undefined, published);
    expect(report!.breaks).toEqual([]);
  });

  it('name the record they signed when the log holds another there, chained anew', () => {
    const { lines, published } = chain(['a', 'b', 'c', 'd'], 2);
    // The same texts with record 2 changed, chained anew, the checkpoint line copied as it was.
    const forged = chain(['a', 'B', 'c', 'd'], 2).lines;
    forged[2] = JSON.stringify({ ...JSON.parse(forged[2]!), checkpoint: published[0]!.note });
    const again = forged.map((line) => JSON.parse(line) as Record<string, unknown>);
    let prev = GENESIS;
    const rechained = again.map((record) => {
      const line = JSON.stringify({ ...record, prev });
      prev = lineDigest(line);
      return line;
    });
    expect(verifyChains(stored(rechained))[0]!.breaks).toEqual([]);
    const [report] = verifyChains(stored(rechained), undefined, published);
    expect(report!.breaks).toEqual([
      expect.objectContaining({
        kind: 'edited',
        seq: 2,
        id: 'r1',
        message: 'record 2 is not the one published checkpoint 3 signed',
      }),
    ]);
    expect(lines[1]).not.toBe(rechained[1]);
  });

  it('name a plain record where a checkpoint was published', () => {
    const { published } = chain(['a', 'b', 'c'], 2);
    const plain = chain(['a', 'b', 'x', 'c'], 0).lines;
    const [report] = verifyChains(stored(plain), undefined, published);
    expect(report!.breaks[0]).toMatchObject({
      kind: 'edited',
      seq: 3,
      message: 'the log holds another record where checkpoint 3 was published',
    });
  });
});
