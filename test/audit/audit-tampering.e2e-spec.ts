import { execFile } from 'node:child_process';
import type { KeyObject } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { runAuditCommand } from '../../src/cli/audit.command.js';
import { GENESIS, lineDigest } from '../../src/mcp/audit/chain/audit-record.js';
import { verifyChains } from '../../src/mcp/audit/verify/chain-verifier.js';
import { McpAuditSinks } from '../../src/index.js';
import { createMcpApp } from '../support/mcp-test-app.js';
import {
  AuditedTools,
  auditAuthorizer,
  keptCheckpoints,
  logDir,
  signingKeys,
} from './audit-app.js';

/*
 * `mcp-warden audit verify` on a real log, tampered with in each way an auditor asks about:
 * each is detected, names the record, and fails the command.
 */

let lines: string[];
let publicKeyFile: string;
let publishedFile: string;

function keyFile(key: KeyObject): string {
  const file = join(logDir(), 'key.pem');
  writeFileSync(file, key.export({ type: 'spki', format: 'pem' }));
  return file;
}

beforeAll(async () => {
  const dir = logDir();
  const { privateKey, publicKey } = signingKeys();
  const published = keptCheckpoints();
  const t = await createMcpApp(
    {
      authorizer: auditAuthorizer,
      transport: 'stdio',
      audit: {
        sinks: [McpAuditSinks.jsonl({ dir })],
        signing: { privateKey, everyRecords: 5, publish: published },
      },
    },
    [AuditedTools],
  );
  await t.initialize('c1');
  for (let round = 0; round < 4; round += 1) {
    await t.callTool('fine', { text: String(round) }, 'c1');
    await t.callTool('forbidden', {}, 'c1');
    await t.callTool('explodes', {}, 'c1');
  }
  await t.close();
  const [file] = readdirSync(dir);
  lines = readFileSync(join(dir, file!), 'utf8').trimEnd().split('\n');
  publicKeyFile = keyFile(publicKey);
  publishedFile = join(logDir(), 'published.jsonl');
  writeFileSync(publishedFile, published.kept.map((c) => JSON.stringify(c)).join('\n') + '\n');
});

/** Writes `tampered` as a log and verifies it. */
async function verify(tampered: string[], key = publicKeyFile) {
  return verifyFiles({ 'audit-x-000001.jsonl': tampered.join('\n') + '\n' }, key);
}

/** Writes each file's text into one folder and verifies it. */
async function verifyFiles(
  files: Record<string, string>,
  key = publicKeyFile,
  checks = publishedFile,
) {
  const dir = logDir();
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const out: string[] = [];
  const status = await runAuditCommand(
    ['verify', dir, '--key', key, '--checkpoints', checks],
    (line) => out.push(line),
    (line) => out.push(line),
  );
  return { status, out: out.join('\n') };
}

/** `lines` split into files of `size` lines, named as the sink names them. */
function rotated(all: string[], size: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i * size < all.length; i += 1) {
    const name = `audit-x-${String(i + 1).padStart(6, '0')}.jsonl`;
    files[name] = all.slice(i * size, (i + 1) * size).join('\n') + '\n';
  }
  return files;
}

/* A second place that kept nothing: the log's own checkpoints are all there is. */
function emptyPublished(): string {
  const file = join(logDir(), 'none.jsonl');
  writeFileSync(file, '');
  return file;
}

const seqOf = (line: string) => (JSON.parse(line) as { seq: number }).seq;
const idOf = (line: string) => (JSON.parse(line) as { id: string }).id;
const isCheckpoint = (line: string) => line.includes('"kind":"checkpoint"');

/*
 * The lines of `records` chained anew after `after` (the last line kept, or none): what a forger
 * with write access and this code writes, so every `prev` and `seq` holds.
 */
function rechained(after: string | undefined, records: Record<string, unknown>[]): string[] {
  let seq = after ? seqOf(after) : 0;
  let prev = after ? lineDigest(after) : GENESIS;
  return records.map((record) => {
    const line = JSON.stringify({ ...record, seq: ++seq, prev });
    prev = lineDigest(line);
    return line;
  });
}

/* A plain decision in place of `line`: same chain and time, another id. */
function forgedFrom(line: string, id: string): Record<string, unknown> {
  const { instance, time } = JSON.parse(line) as { instance: string; time: string };
  return {
    id,
    kind: 'decision',
    time,
    connId: 'c1',
    requestId: 99,
    transport: 'stdio',
    seam: 'tool',
    name: 'fine',
    decision: 'allow',
    instance,
  };
}

describe('mcp-warden audit verify', () => {
  it('passes the log as written', async () => {
    expect(lines.length).toBeGreaterThan(20);
    const { status, out } = await verify(lines);
    expect(out).toMatch(/^ok .*chain intact; (\d+)\/\1 checkpoints verified, 0 records after/m);
    expect(status).toBe(0);
  });

  it('an edited record: named by its position and id', async () => {
    const index = lines.findIndex((line, i) => i > 2 && line.includes('"decision":"deny"'));
    const tampered = [...lines];
    tampered[index] = tampered[index]!.replace('"decision":"deny"', '"decision":"allow"');
    const { status, out } = await verify(tampered);
    expect(out).toContain(`edited: record ${seqOf(lines[index]!)} (${idOf(lines[index]!)})`);
    expect(status).toBe(1);
  });

  it('a removed record', async () => {
    const tampered = lines.filter((_, i) => i !== 4);
    const { status, out } = await verify(tampered);
    expect(out).toContain(`removed: record 6`);
    expect(out).toContain('records 5–5 are missing');
    expect(status).toBe(1);
  });

  it('reordered records', async () => {
    const tampered = [...lines];
    [tampered[6], tampered[7]] = [tampered[7]!, tampered[6]!];
    const { status, out } = await verify(tampered);
    expect(out).toContain('reordered: record 8');
    expect(out).not.toMatch(/edited|removed/);
    expect(status).toBe(1);
  });

  it('an inserted record, even one that copies its neighbour’s place in the chain', async () => {
    const original = JSON.parse(lines[8]!) as Record<string, unknown>;
    const forged = { ...original, id: 'forged-0000', name: 'fine', decision: 'allow' };
    const tampered = [...lines.slice(0, 8), JSON.stringify(forged), ...lines.slice(8)];
    const { status, out } = await verify(tampered);
    expect(out).toContain(`inserted: record 9 (forged-0000)`);
    expect(out).not.toContain(`(${idOf(lines[8]!)})`);
    expect(status).toBe(1);
  });

  it('a log cut short after its last checkpoints: the published ones name it', async () => {
    const tampered = lines.slice(0, lines.length - 8);
    const { status, out } = await verify(tampered);
    expect(out).toMatch(
      new RegExp(
        `truncated: record \\d+ at published checkpoints: the log ends at record ${lines.length - 8}`,
      ),
    );
    expect(status).toBe(1);
  });

  it('checkpoints signed with another key', async () => {
    const other = keyFile(signingKeys().publicKey);
    const { status, out } = await verify(lines, other);
    expect(out).toMatch(
      /wrong-key: record \d+ \(\S+\) at .*: a checkpoint signed with another key/,
    );
    expect(status).toBe(1);
  });

  it('a log cut short, then grown again with records chained anew: the published ones name it', async () => {
    const kept = lines.length - 8;
    const grown = rechained(
      lines[kept - 1],
      lines.slice(kept).map((line, i) => forgedFrom(line, `forged-${i}`)),
    );
    const tampered = [...lines.slice(0, kept), ...grown];
    expect(tampered.length).toBe(lines.length);
    const { status, out } = await verify(tampered);
    expect(out).toMatch(
      /edited: record (\d+) \(forged-\d\) at .*: the log holds another record where checkpoint \1 was published/,
    );
    expect(status).toBe(1);
  });

  it('an edit chained anew to the end, its checkpoints made plain: the published ones name it', async () => {
    const index = lines.findIndex((line, i) => i > 2 && line.includes('"decision":"deny"'));
    const rest = lines.slice(index).map((line, i) => {
      if (isCheckpoint(line)) return forgedFrom(line, `plain-${i}`);
      const record = JSON.parse(line) as Record<string, unknown>;
      return i === 0 ? { ...record, decision: 'allow' } : record;
    });
    const tampered = [...lines.slice(0, index), ...rechained(lines[index - 1], rest)];
    // Chained anew, the log holds together on its own: only the second place can tell.
    const alone = verifyChains(
      tampered.map((line) => ({ where: 'log', line })),
      signingKeys().publicKey,
    );
    expect(alone.every((chain) => !chain.breaks.some((b) => b.kind === 'removed'))).toBe(true);
    const { status, out } = await verify(tampered);
    const firstPublished = lines.findIndex((line, i) => i > index && isCheckpoint(line));
    expect(out).toContain(
      `edited: record ${seqOf(lines[firstPublished]!)} (plain-${firstPublished - index})`,
    );
    expect(status).toBe(1);
  });

  it('a whole chain written by someone else, with no checkpoint: refused under the key', async () => {
    const other = rechained(
      undefined,
      lines
        .slice(0, 3)
        .map((line, i) => ({ ...forgedFrom(line, `alien-${i}`), instance: 'elsewhere' })),
    );
    const { status, out } = await verify([...lines, ...other]);
    expect(out).toContain('unsigned: record 1 (alien-0)');
    expect(out).toMatch(/^BROKEN {2}elsewhere: 3 records$/m);
    expect(status).toBe(1);
  });

  it('a signed log verified without its key is not passed', async () => {
    const out: string[] = [];
    const dir = logDir();
    writeFileSync(join(dir, 'audit-x-000001.jsonl'), lines.join('\n') + '\n');
    const status = await runAuditCommand(['verify', dir], out.push.bind(out), out.push.bind(out));
    expect(out.join('\n')).toMatch(/^UNCHECKED .*checkpoints not verified: pass --key/m);
    expect(out.join('\n')).toMatch(/^0 chains intact, 0 broken, 1 unchecked$/m);
    expect(status).toBe(1);
  });

  it('a partial last line (a write a crash left unfinished) is noted, not a break', async () => {
    const last = lines[lines.length - 1]!;
    const dir = logDir();
    const file = join(dir, 'audit-x-000001.jsonl');
    writeFileSync(file, lines.slice(0, -1).join('\n') + '\n' + last.slice(0, 40));
    const out: string[] = [];
    const status = await runAuditCommand(
      ['verify', dir, '--key', publicKeyFile],
      out.push.bind(out),
      out.push.bind(out),
    );
    expect(out.join('\n')).toContain(
      `note: ${file}:${lines.length} is a partial last line, a write left unfinished`,
    );
    expect(status).toBe(0);
    // The same fragment anywhere else is no crash's: a line that is not a record.
    const { status: inMiddle, out: said } = await verify([
      ...lines.slice(0, 3),
      last.slice(0, 40),
      ...lines.slice(3),
    ]);
    expect(said).toContain('inserted');
    expect(inMiddle).toBe(1);
  });

  it('the last checkpoint rewritten as a decision, its note kept: edited', async () => {
    // Nothing after the last record hashes it, so its fields beside the note must not pass.
    const last = lines[lines.length - 1]!;
    expect(isCheckpoint(last)).toBe(true);
    const forged = { ...forgedFrom(last, 'mallory-1'), principal: 'mallory' };
    const { checkpoint, seq, prev } = JSON.parse(last) as Record<string, unknown>;
    const tampered = [...lines.slice(0, -1), JSON.stringify({ ...forged, checkpoint, seq, prev })];
    const { status, out } = await verify(tampered);
    expect(out).toContain(`edited: record ${seqOf(last)} (mallory-1)`);
    expect(out).toContain('a checkpoint with fields a checkpoint does not have');
    expect(status).toBe(1);
  });

  it('a chain forged after a copied checkpoint, in a later file: not signed by it', async () => {
    const at = lines.findIndex(isCheckpoint);
    const copied = JSON.parse(lines[at]!) as Record<string, unknown>;
    const after = lines.slice(at + 1, at + 4).map((line, i) => forgedFrom(line, `after-${i}`));
    // The same instance, the real checkpoint record first: it signs only records before it.
    const same = [lines[at]!, ...rechained(lines[at], after)];
    const own = await verifyFiles(
      { 'audit-x-000002.jsonl': same.join('\n') + '\n' },
      publicKeyFile,
      emptyPublished(),
    );
    expect(own.out).toContain(`unsigned: record ${seqOf(lines[at]!)}`);
    expect(own.status).toBe(1);
    // Another instance's chain behind the copied note: the note's origin names the real one.
    const evil = { ...copied, instance: 'evil' };
    const elsewhere = [
      JSON.stringify(evil),
      ...rechained(
        JSON.stringify(evil),
        after.map((r) => ({ ...r, instance: 'evil' })),
      ),
    ];
    const other = await verifyFiles(
      { 'audit-evil-000002.jsonl': elsewhere.join('\n') + '\n' },
      publicKeyFile,
      emptyPublished(),
    );
    expect(other.out).toMatch(/inserted: record \d+ \(\S+\) at .*: a checkpoint of another chain/);
    expect(other.status).toBe(1);
  });

  it('lines that are JSON but no record, and a position past 2^53: inserted, not a crash', async () => {
    for (const stray of [
      'null',
      '[1,2]',
      '"text"',
      '{"instance":"x","seq":9007199254740992,"prev":""}',
    ]) {
      const { status, out } = await verify([...lines.slice(0, 3), stray, ...lines.slice(3)]);
      expect(out).toMatch(/inserted: .*a record without its place in a chain/);
      expect(status).toBe(1);
    }
  });

  it('a record edited and moved: both named', async () => {
    const index = lines.findIndex((line, i) => i > 2 && line.includes('"decision":"deny"'));
    const tampered = [...lines];
    tampered[index] = tampered[index]!.replace('"decision":"deny"', '"decision":"allow"');
    [tampered[index], tampered[index + 1]] = [tampered[index + 1]!, tampered[index]!];
    const { status, out } = await verify(tampered);
    expect(out).toContain(`edited: record ${seqOf(lines[index]!)} (${idOf(lines[index]!)})`);
    expect(out).toContain(`reordered: record ${seqOf(lines[index + 1]!)}`);
    expect(status).toBe(1);
  });

  it('a record removed and its neighbour moved over the gap: both named', async () => {
    // Record 9 removed, record 8 moved after record 10.
    const tampered = [...lines.slice(0, 7), lines[9]!, lines[7]!, ...lines.slice(10)];
    const { status, out } = await verify(tampered);
    expect(out).toContain('removed: record 10');
    expect(out).toContain('records 9–9 are missing');
    expect(out).toContain('reordered: record 10');
    expect(out).toContain('record 8 comes after record 10');
    expect(status).toBe(1);
  });

  it('a partial line at the end of a file the chain goes on after: inserted', async () => {
    const files = rotated(lines, 8);
    expect(Object.keys(files).length).toBeGreaterThan(2);
    const whole = await verifyFiles(files);
    expect(whole.status).toBe(0);
    files['audit-x-000002.jsonl'] += '{"id":"forged-partial';
    const { status, out } = await verifyFiles(files);
    expect(out).toMatch(/inserted: .*audit-x-000002\.jsonl:9: a line that is not a JSON record/);
    expect(status).toBe(1);
    // The same fragment ending the last file is a crash's.
    const names = Object.keys(rotated(lines, 8));
    const last = rotated(lines, 8);
    last[names[names.length - 1]!] += '{"id":"cut-short';
    const crash = await verifyFiles(last);
    expect(crash.out).toContain('is a partial last line, a write left unfinished');
    expect(crash.status).toBe(0);
    // A start killed in its first write: a file of its own holding only the fragment.
    const firstWrite = await verifyFiles({
      ...rotated(lines, 8),
      'audit-y-000001.jsonl': '{"id":"never-finish',
    });
    expect(firstWrite.out).not.toContain('inserted');
    expect(firstWrite.status).toBe(0);
  });

  it('a published entry that is not a checkpoint: inserted, not a crash', async () => {
    const checks = join(logDir(), 'published.jsonl');
    writeFileSync(checks, readFileSync(publishedFile, 'utf8') + '{"instance":"x","seq":3}\n');
    const { status, out } = await verifyFiles(
      { 'audit-x-000001.jsonl': lines.join('\n') + '\n' },
      publicKeyFile,
      checks,
    );
    expect(out).toContain('a published entry that is not a checkpoint');
    expect(status).toBe(1);
  });

  it('the installed command exits non-zero on a broken log', async () => {
    const dir = logDir();
    writeFileSync(
      join(dir, 'audit-x-000001.jsonl'),
      lines.filter((_, i) => i !== 3).join('\n') + '\n',
    );
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) =>
      execFile(
        process.execPath,
        ['dist/cli/mcp-warden.js', 'audit', 'verify', dir, '--key', publicKeyFile],
        (error, stdout) =>
          resolve({ code: (error as { code?: number } | null)?.code ?? 0, stdout }),
      ),
    );
    expect(stdout).toContain('removed: record 5');
    expect(code).toBe(1);
  });

  it('the installed command, pointed at a Redis that is not there, says so and exits', async () => {
    const dir = logDir();
    writeFileSync(join(dir, 'audit-x-000001.jsonl'), lines.join('\n') + '\n');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const checkpoints = `redis://127.0.0.1:${port}`;
    // A command left waiting on Redis would be killed by the timeout, and fail here.
    const { code, stderr } = await new Promise<{ code: unknown; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['dist/cli/mcp-warden.js', 'audit', 'verify', dir, '--checkpoints', checkpoints],
        { timeout: 20_000 },
        (error, _stdout, stderr) =>
          resolve({ code: (error as { code?: number } | null)?.code ?? 0, stderr }),
      ),
    );
    expect(stderr).toContain(`cannot read checkpoints from 127.0.0.1:${port}`);
    expect(code).toBe(2);
  });
});
