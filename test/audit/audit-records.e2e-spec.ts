import type { Type } from '@nestjs/common';
import { SeverityNumber, logs } from '@opentelemetry/api';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { Kysely, SqliteDialect } from 'kysely';
import type { KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../../src/app/database/sqlite.connection.js';
import { runAuditCommand } from '../../src/cli/audit.command.js';
import { readAuditSource } from '../../src/cli/audit/record-source.js';
import { verifyChains } from '../../src/mcp/audit/verify/chain-verifier.js';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  McpAuditSinks,
  McpCheckpointPublishers,
  McpWarden,
  type McpAuditCheckpoint,
  type McpAuditSink,
  type McpAuditOptions,
} from '../../src/index.js';
import { argumentsDigest } from '../../src/mcp/authorization/audit/arguments-digest.js';
import { createMcpApp } from '../support/mcp-test-app.js';
import {
  ArgumentsChanger,
  AuditedTools,
  auditAuthorizer,
  logDir,
  recordsOf,
  signingKeys,
  verifySource,
} from './audit-app.js';

/*
 * Durable audit records (docs/audit.md): each sink keeps every decision and outcome in a hash
 * chain that verifies, with signed checkpoints; the arguments are a digest unless asked for.
 */

async function drive(audit: McpAuditOptions, connId = 'c1') {
  const t = await createMcpApp({ authorizer: auditAuthorizer, transport: 'stdio', audit }, [
    AuditedTools,
  ]);
  await t.initialize(connId);
  await t.callTool('fine', { text: 'a' }, connId);
  await t.callTool('refuses', {}, connId);
  await t.callTool('explodes', {}, connId);
  await t.callTool('forbidden', {}, connId);
  await t.result('tools/list', {}, connId);
  return t;
}

/** `key` as a PEM file, for `audit verify --key`. */
function keyFileOf(key: KeyObject): string {
  const file = join(logDir(), 'audit.pub');
  writeFileSync(file, key.export({ type: 'spki', format: 'pem' }));
  return file;
}

/* An app whose JSON Lines sink in `dir` keeps the arguments themselves. */
function keepingFullArguments(dir: string, tools: Type<object>) {
  const audit: McpAuditOptions = { sinks: [McpAuditSinks.jsonl({ dir })], arguments: 'full' };
  return createMcpApp({ authorizer: auditAuthorizer, transport: 'stdio', audit }, [tools]);
}

describe('audit sinks', () => {
  it('JSON Lines: every decision and outcome, chained, with signed checkpoints', async () => {
    const dir = logDir();
    const { privateKey, publicKey } = signingKeys();
    const t = await drive({
      sinks: [McpAuditSinks.jsonl({ dir })],
      signing: { privateKey, everyRecords: 3 },
    });
    await t.close();

    const records = await recordsOf(dir);
    const decisions = records.filter((r) => r.kind === 'decision' && r.seam === 'tool');
    const outcomes = records.filter((r) => r.kind === 'outcome');
    expect(decisions.map((r) => [r.name, r.decision])).toEqual([
      ['fine', 'allow'],
      ['refuses', 'allow'],
      ['explodes', 'allow'],
      ['forbidden', 'deny'],
    ]);
    // Only the calls that ran have an outcome, each linked to its decision.
    expect(outcomes.map((r) => [r.name, r.outcome, r.of])).toEqual([
      ['fine', 'ok', decisions[0]!.id],
      ['refuses', 'isError', decisions[1]!.id],
      ['explodes', 'threw', decisions[2]!.id],
    ]);
    for (const decision of decisions) {
      expect(decision).toMatchObject({ era: 'legacy', transport: 'stdio', connId: 'c1' });
      expect(decision.argumentsDigest).toMatch(/^[0-9a-f]{64}$/);
      expect(decision).not.toHaveProperty('arguments');
    }
    expect(records.some((r) => r.kind === 'decision' && r.name === 'tools/list')).toBe(true);

    const [chain, ...others] = await verifySource(dir, publicKey);
    expect(others).toEqual([]);
    expect(chain).toMatchObject({ breaks: [], records: records.length, unsignedTail: 0 });
    // Every third record is followed by a checkpoint, and shutdown signs the rest.
    expect(chain!.verifiedCheckpoints).toBe(chain!.checkpoints);
    const events = records.filter((r) => r.kind !== 'checkpoint').length;
    expect(chain!.checkpoints).toBe(Math.ceil(events / 3));
    expect(records.at(-1)!.kind).toBe('checkpoint');
  });

  it("`arguments: 'full'` keeps the arguments beside their digest", async () => {
    const dir = logDir();
    const t = await drive({ sinks: [McpAuditSinks.jsonl({ dir })], arguments: 'full' });
    await t.close();
    const fine = (await recordsOf(dir)).find((r) => r.kind === 'decision' && r.name === 'fine');
    expect(fine).toMatchObject({ arguments: { text: 'a' }, argumentsDigest: expect.any(String) });
  });

  it('a tool that changes its arguments does not change what its decision recorded', async () => {
    const dir = logDir();
    const t = await keepingFullArguments(dir, ArgumentsChanger);
    await t.initialize('c1');
    const sent = () => ({ text: 'as sent', nested: { items: ['one'] } });
    await t.callTool('changes_its_arguments', sent(), 'c1');
    await t.close();
    const decision = (await recordsOf(dir)).find(
      (r) => r.kind === 'decision' && r.name === 'changes_its_arguments',
    );
    // What was decided on, and the digest of that.
    expect(decision!.arguments).toEqual(sent());
    expect(decision!.argumentsDigest).toBe(argumentsDigest(sent()));
  });

  it('an audit$ subscriber can neither change an event nor what the sinks keep of it', async () => {
    const dir = logDir();
    const t = await keepingFullArguments(dir, AuditedTools);
    const refused: string[] = [];
    const attempt = (field: string, change: () => void) => {
      try {
        change();
      } catch (error) {
        if (error instanceof TypeError) refused.push(field);
      }
    };
    t.app.get(McpWarden).audit$.subscribe((event) => {
      if (event.kind !== 'decision' || event.name !== 'fine') return;
      const open = event as { principal?: string; decision: string; arguments?: any };
      attempt('principal', () => (open.principal = 'someone else'));
      attempt('decision', () => (open.decision = 'deny'));
      attempt('arguments', () => (open.arguments.text = 'redacted'));
    });
    await t.initialize('c1');
    await t.callTool('fine', { text: 'a' }, 'c1');
    await t.close();
    expect(refused).toEqual(['principal', 'decision', 'arguments']);
    const fine = (await recordsOf(dir)).find((r) => r.kind === 'decision' && r.name === 'fine');
    expect(fine).toMatchObject({ decision: 'allow', arguments: { text: 'a' } });
    expect(fine).not.toHaveProperty('principal');
  });

  it('rotates files by size, and the chain runs on across them', async () => {
    const dir = logDir();
    const t = await drive({ sinks: [McpAuditSinks.jsonl({ dir, maxBytes: 600 })] });
    await t.close();
    const lines = await import('../../src/cli/audit/record-source.js').then((m) =>
      m.readAuditSource(dir),
    );
    const files = new Set(lines.map((line) => line.where.replace(/:\d+$/, '')));
    expect(files.size).toBeGreaterThan(2);
    expect(verifyChains(lines)).toEqual([expect.objectContaining({ breaks: [] })]);
  });

  /* Drives calls into `sink` (a SQLite table in `file`), then verifies and queries the file. */
  async function verifiedSqlite(file: string, sink: McpAuditSink, closed?: () => Promise<void>) {
    const { privateKey, publicKey } = signingKeys();
    const t = await drive({ sinks: [sink], signing: { privateKey, everyRecords: 4 } });
    await t.close();
    await closed?.();
    const keyFile = join(logDir(), 'audit.pub');
    await import('node:fs/promises').then((fs) =>
      fs.writeFile(keyFile, publicKey.export({ type: 'spki', format: 'pem' })),
    );
    const out: string[] = [];
    const status = await runAuditCommand(
      ['verify', `sqlite:${file}`, '--key', keyFile],
      (l) => out.push(l),
      (l) => out.push(l),
    );
    expect(out.join('\n')).toMatch(
      /^ok {6}\S+: \d+ records, chain intact; (\d+)\/\1 checkpoints verified, 0 records after the last$/m,
    );
    expect(status).toBe(0);

    const table: string[] = [];
    await runAuditCommand(
      ['query', `sqlite:${file}`, '--tool', 'forbidden', '--format', 'table'],
      (l) => table.push(l),
      () => undefined,
    );
    expect(table).toHaveLength(2);
    expect(table[1]).toMatch(/decision\s+tool\s+forbidden\s+deny\s+not here/);
  }

  it('SQLite table (the app’s Kysely): `mcp-warden audit verify sqlite:<file>` passes', async () => {
    const file = join(logDir(), 'audit.db');
    const db = new Kysely<any>({
      dialect: new SqliteDialect({ database: await openSqlite(file) }),
    });
    await verifiedSqlite(file, McpAuditSinks.sql({ db }), () => db.destroy());
  });

  it('SQLite table on a thread of its own, beside the app’s connection: verify passes', async () => {
    // The app's database is open on this thread, as the notes service's is.
    const file = join(logDir(), 'audit.db');
    const db = new Kysely<any>({
      dialect: new SqliteDialect({ database: await openSqlite(file) }),
    });
    await verifiedSqlite(file, McpAuditSinks.sqlite({ file }));
    await db.destroy();
  });

  it('OpenTelemetry logs: one log record per audit record, its body the chained line', async () => {
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    logs.setGlobalLoggerProvider(provider);
    try {
      const t = await drive({ sinks: [McpAuditSinks.otelLogs()] });
      await t.close();
      const emitted = exporter.getFinishedLogRecords();
      expect(emitted.length).toBeGreaterThan(5);
      expect(emitted[0]).toMatchObject({
        severityNumber: SeverityNumber.INFO,
        attributes: expect.objectContaining({ 'mcp_warden.audit.seq': 1 }),
      });
      const lines = emitted.map((record, index) => ({
        where: `log ${index}`,
        line: String(record.body),
      }));
      expect(verifyChains(lines)).toEqual([
        expect.objectContaining({ breaks: [], records: emitted.length }),
      ]);
    } finally {
      await provider.shutdown();
      logs.disable();
    }
  });

  it('failClosed waits on sinks that keep records: OpenTelemetry logs alone refuse to boot', async () => {
    // An emitted log record waits in the SDK's buffer (or goes nowhere without a provider):
    // nothing says it was kept, so it cannot be what lets a tool run.
    await expect(
      createMcpApp(
        {
          authorizer: auditAuthorizer,
          transport: 'stdio',
          audit: { sinks: [McpAuditSinks.otelLogs()], failClosed: true },
        },
        [AuditedTools],
      ),
    ).rejects.toThrow(/`audit.failClosed` .* no `audit.sinks` keep any/);
    // Beside a file, calls wait for the file, and the logs carry the same records.
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    logs.setGlobalLoggerProvider(provider);
    try {
      const dir = logDir();
      const t = await drive({
        sinks: [McpAuditSinks.jsonl({ dir }), McpAuditSinks.otelLogs()],
        failClosed: true,
      });
      await t.close();
      const kept = await recordsOf(dir);
      expect(kept.filter((record) => record.name === 'fine').map((r) => r.kind)).toEqual([
        'decision',
        'outcome',
      ]);
      expect(exporter.getFinishedLogRecords().map((record) => String(record.body))).toEqual(
        readdirSync(dir).flatMap((file) =>
          readFileSync(join(dir, file), 'utf8').trimEnd().split('\n'),
        ),
      );
    } finally {
      await provider.shutdown();
      logs.disable();
    }
  });

  it('checkpoints go to a webhook receiver too, which names a log cut short', async () => {
    const received: McpAuditCheckpoint[] = [];
    let waiting: { count: number; resolve: () => void } | undefined;
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (req.headers.authorization === 'Bearer receiver') received.push(JSON.parse(body));
        if (waiting && received.length >= waiting.count) waiting.resolve();
        res.writeHead(req.headers.authorization === 'Bearer receiver' ? 204 : 401).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/checkpoints`;
    const dir = logDir();
    const { privateKey, publicKey } = signingKeys();
    try {
      const t = await drive({
        sinks: [McpAuditSinks.jsonl({ dir })],
        signing: {
          privateKey,
          everyRecords: 2,
          publish: McpCheckpointPublishers.webhook({
            url,
            headers: { authorization: 'Bearer receiver' },
          }),
        },
      });
      await t.close();
      const records = await recordsOf(dir);
      const inLog = records.filter((r) => r.kind === 'checkpoint');
      // Delivery is asynchronous: the last one may still be on its way when the app has closed.
      if (received.length < inLog.length) {
        await new Promise<void>((resolve) => (waiting = { count: inLog.length, resolve }));
      }
      expect(received.map((c) => c.note)).toEqual(inLog.map((r) => r.checkpoint));
      expect(await verifySource(dir, publicKey, received)).toEqual([
        expect.objectContaining({ breaks: [] }),
      ]);
      // The log cut back to before its last two checkpoints: what the receiver kept says so.
      const lines = (await readAuditSource(dir)).map((stored) => stored.line);
      const lastKept = lines.findLastIndex((line) => line.includes('"kind":"checkpoint"'));
      const cut = lines.slice(
        0,
        lines.findLastIndex((l, i) => i < lastKept && l.includes('"kind":"checkpoint"')),
      );
      const short = verifyChains(
        cut.map((line, i) => ({ where: `line ${i + 1}`, line })),
        publicKey,
        received,
      );
      expect(short[0]!.breaks).toEqual([expect.objectContaining({ kind: 'truncated' })]);
    } finally {
      receiver.close();
    }
  });

  it('three instances write three chains into one folder; one verify covers them all', async () => {
    const dir = logDir();
    const { privateKey, publicKey } = signingKeys();
    const apps = await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        drive({
          sinks: [McpAuditSinks.jsonl({ dir })],
          signing: { privateKey },
          instance: `node-${name}`,
        }),
      ),
    );
    await Promise.all(apps.map((t) => t.close()));
    const chains = await verifySource(dir, publicKey);
    expect(chains.map((chain) => [chain.instance, chain.breaks, chain.unsignedTail])).toEqual([
      [expect.stringMatching(/^node-a-[0-9a-f]{8}$/), [], 0],
      [expect.stringMatching(/^node-b-[0-9a-f]{8}$/), [], 0],
      [expect.stringMatching(/^node-c-[0-9a-f]{8}$/), [], 0],
    ]);
  });

  it('a folder whose oldest files retention removed (maxFiles) verifies from its first kept record', async () => {
    const dir = logDir();
    const { privateKey, publicKey } = signingKeys();
    const t = await drive({
      sinks: [McpAuditSinks.jsonl({ dir, maxBytes: 2_000, maxFiles: 2 })],
      signing: { privateKey, everyRecords: 3 },
    });
    for (let round = 0; round < 6; round += 1) await t.callTool('fine', { text: `${round}` }, 'c1');
    await t.close();
    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    expect(files[0]).not.toMatch(/-000001\.jsonl$/);
    const out: string[] = [];
    const status = await runAuditCommand(
      ['verify', dir, '--key', keyFileOf(publicKey)],
      out.push.bind(out),
      out.push.bind(out),
    );
    expect(out.join('\n')).toMatch(/^ok .*chain intact/m);
    expect(out.join('\n')).toMatch(/note: records 1–\d+ are in files no longer kept/);
    expect(status).toBe(0);
    // Within what is kept, a removed record is still a break: the second of the oldest kept
    // file's lines (which file the last records fell in depends on where rotation cut).
    const oldest = join(dir, files[0]!);
    const kept = readFileSync(oldest, 'utf8').trimEnd().split('\n');
    expect(kept.length).toBeGreaterThanOrEqual(3);
    writeFileSync(oldest, [kept[0], ...kept.slice(2)].join('\n') + '\n');
    const again: string[] = [];
    expect(
      await runAuditCommand(
        ['verify', dir, '--key', keyFileOf(publicKey)],
        again.push.bind(again),
        again.push.bind(again),
      ),
    ).toBe(1);
    expect(again.join('\n')).toContain('removed');
  });

  it('a restart under the same audit.instance begins a chain of its own: both verify', async () => {
    const dir = logDir();
    const { privateKey, publicKey } = signingKeys();
    for (let start = 0; start < 2; start += 1) {
      const t = await drive({
        sinks: [McpAuditSinks.jsonl({ dir })],
        signing: { privateKey },
        instance: 'pod-1',
      });
      await t.close();
    }
    const chains = await verifySource(dir, publicKey);
    expect(chains).toHaveLength(2);
    expect(chains[0]!.instance).not.toBe(chains[1]!.instance);
    for (const chain of chains) {
      expect(chain).toMatchObject({ instance: expect.stringMatching(/^pod-1-/), breaks: [] });
      expect(chain.records).toBeGreaterThan(5);
    }
  });
});
