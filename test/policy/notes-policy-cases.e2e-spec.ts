import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { readFile } from 'node:fs/promises';
import { AppModule } from '../../src/app/app.module.js';
import { McpWarden } from '../../src/index.js';
import { McpTestClient, runPolicyCases } from '../../src/testing/index.js';
import { setProcessEnv } from '../support/process-env.js';
import { makeDataDir, removeDataDir } from '../support/stdio-child.js';

/*
 * The notes service's policy cases, run against the live service (its registry, its Cedar set,
 * its entities hook) with runPolicyCases, and the committed tools list the CLI validates with
 * kept equal to what the service really lists.
 */

let app: INestApplicationContext;
let dataDir: string;
let restoreEnv: () => void;

beforeAll(async () => {
  dataDir = await makeDataDir();
  restoreEnv = setProcessEnv({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forTransport('stdio')],
  }).compile();
  app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  app.get(McpWarden);
});
afterAll(async () => {
  await app?.close();
  await removeDataDir(dataDir);
  restoreEnv?.();
});

describe('the notes service policy', () => {
  it('passes every case in policies/notes.cases.yaml against the live app', async () => {
    const results = await runPolicyCases(app, 'policies/notes.cases.yaml');
    expect(results.length).toBeGreaterThanOrEqual(12);
    expect(results.filter((result) => !result.passed)).toEqual([]);
  });

  it('a case that expects the wrong decision fails, naming what was decided', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'cases-'));
    const file = join(dir, 'wrong.json');
    await writeFile(
      file,
      JSON.stringify([{ name: 'wrong', principal: null, tool: 'no_such_tool', expect: 'allow' }]),
    );
    const [result] = await runPolicyCases(app, file);
    expect(result).toMatchObject({
      name: 'wrong',
      passed: false,
      actual: 'deny (tool_not_in_policy)',
      problem: 'expected allow, got deny (tool_not_in_policy)',
    });
    await rm(dir, { recursive: true, force: true });
  });

  it('policies/notes.tools.json is what the service lists', async () => {
    const client = await McpTestClient.connect(app);
    const listed = (await client.listTools()).map(({ name, description, inputSchema }) => ({
      name,
      description,
      inputSchema,
    }));
    const committed = JSON.parse(await readFile('policies/notes.tools.json', 'utf8'));
    expect(committed.tools).toEqual(listed);
    await client.close();
  });
});
