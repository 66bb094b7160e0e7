import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAuditSource } from '../../src/cli/audit/record-source.js';
import { verifyChains } from '../../src/mcp/audit/verify/chain-verifier.js';
import { MAIN_STDIO, StdioScript, makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * The notes service keeps its audit chain in its own database (SQLite here): signed, verified by
 * the installed command; and with AUDIT_FAIL_CLOSED, every call whose answer reached the client
 * has its decision record, however the process dies.
 */

const CLI = join(process.cwd(), 'dist/cli/mcp-warden.js');

function cli(args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [CLI, ...args], (error, stdout) =>
      resolve({ code: (error as { code?: number } | null)?.code ?? 0, stdout }),
    ),
  );
}

describe('the notes service: its audit chain', () => {
  let dataDir: string;
  let keyFile: string;
  let publicKeyFile: string;

  beforeAll(async () => {
    dataDir = await makeDataDir();
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    keyFile = join(dataDir, 'audit.key');
    publicKeyFile = join(dataDir, 'audit.pub');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(publicKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
  });
  afterAll(() => removeDataDir(dataDir));

  async function service(env: Record<string, string> = {}) {
    const child = new StdioScript(MAIN_STDIO, {
      DATA_DIR: dataDir,
      MCP_PRINCIPAL_SUBJECT: 'carol',
      AUDIT_SIGNING_KEY_FILE: keyFile,
      AUDIT_CHECKPOINT_EVERY: '3',
      ...env,
    });
    await child.initialize({});
    child.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return child;
  }

  it('is kept in the notes database, signed, and `mcp-warden audit verify` passes on it', async () => {
    const child = await service();
    await child.request('tools/call', {
      name: 'create_note',
      arguments: { title: 'a', body: 'b' },
    });
    await child.request('tools/call', { name: 'search_notes', arguments: { query: 'a' } });
    child.process.kill('SIGTERM');
    expect(await child.exited).toMatchObject({ code: 0 });

    const source = `sqlite:${join(dataDir, 'notes.sqlite')}`;
    const records = (await readAuditSource(source)).map((stored) => JSON.parse(stored.line));
    expect(records.filter((r) => r.kind === 'outcome').map((r) => [r.name, r.outcome])).toEqual([
      ['create_note', 'ok'],
      ['search_notes', 'ok'],
    ]);
    expect(records.find((r) => r.name === 'create_note')).toMatchObject({ principal: 'carol' });
    const { code, stdout } = await cli(['audit', 'verify', source, '--key', publicKeyFile]);
    expect(stdout).toMatch(
      /^ok .*chain intact; (\d+)\/\1 checkpoints verified, 0 records after the last/m,
    );
    expect(code).toBe(0);
  });

  it('failClosed: every answered call has its decision record, over 5 SIGKILLs', async () => {
    const answered: string[] = [];
    for (let kill = 0; kill < 5; kill += 1) {
      const child = await service({ AUDIT_FAIL_CLOSED: 'true' });
      // Calls in flight when the process dies: some answered, some not.
      const calls = Array.from({ length: 20 }, (_, index) => {
        const title = `k${kill}-${index}`;
        return child
          .request('tools/call', { name: 'create_note', arguments: { title, body: 'x' } })
          .then((reply) => {
            if (reply.result && !reply.result.isError) answered.push(title);
          });
      });
      await Promise.race(calls);
      child.process.kill('SIGKILL');
      await child.exited;
      // Every answer the client got has been read (the rest never come).
      await child.stdoutClosed;
    }
    expect(answered.length).toBeGreaterThanOrEqual(5);
    const stored = await readAuditSource(`sqlite:${join(dataDir, 'notes.sqlite')}`);
    const decisions = stored
      .map((entry) => JSON.parse(entry.line))
      .filter((r) => r.kind === 'decision' && r.seam === 'tool' && r.decision === 'allow');
    // The arguments' digest is all a decision keeps: match the answered calls by theirs.
    const { argumentsDigest } =
      await import('../../src/mcp/authorization/audit/arguments-digest.js');
    const kept = new Set(decisions.map((r) => r.argumentsDigest));
    for (const title of answered) {
      expect(kept.has(argumentsDigest({ title, body: 'x' }))).toBe(true);
    }
    // Killed chains end unsigned, never broken.
    for (const chain of verifyChains(stored)) expect(chain.breaks).toEqual([]);
  });
});
