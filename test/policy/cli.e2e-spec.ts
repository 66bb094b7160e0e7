import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The built `mcp-warden` command (the pack check runs it again from the installed tarball):
 * exit statuses, and the options that mirror McpPolicies.cedar (claims, groups, templates).
 */

const CLI = 'dist/cli/mcp-warden.js';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-'));
  await writeFile(
    join(dir, 'tools.json'),
    JSON.stringify({
      tools: [
        {
          name: 'deploy',
          description: 'Deploy.',
          inputSchema: {
            type: 'object',
            properties: { env: { type: 'string' } },
            required: ['env'],
          },
        },
      ],
    }),
  );
  await writeFile(
    join(dir, 'deploy.cedar'),
    `@id("eng-deploys-staging")
permit (principal in Mcp::Group::"eng", action == Mcp::Action::"deploy", resource)
when { context.input.env == "staging" };

@id("oncall-deploys-prod")
@ask("Deploy to {input.env}?")
permit (principal is Mcp::User, action == Mcp::Action::"deploy", resource)
when { principal has team && principal.team == "oncall" };`,
  );
  await writeFile(
    join(dir, 'templates.cedar'),
    `@id("owner-deploys")
permit (principal == ?principal, action == Mcp::Action::"deploy", resource);`,
  );
  await writeFile(
    join(dir, 'links.json'),
    JSON.stringify([
      {
        templateId: 'owner-deploys',
        newId: 'ada-deploys',
        values: { '?principal': { type: 'Mcp::User', id: 'ada' } },
      },
    ]),
  );
  await writeFile(
    join(dir, 'cases.yaml'),
    `- name: eng deploys staging
  principal: { subject: bo, groups: [eng] }
  tool: deploy
  arguments: { env: staging }
  expect: allow
  policies: [eng-deploys-staging]
- name: eng does not deploy prod
  principal: { subject: bo, groups: [eng] }
  tool: deploy
  arguments: { env: prod }
  expect: deny
  reason: not_permitted
- name: on-call is asked, from a mapped claim
  principal: { subject: cy, claims: { team_claim: oncall } }
  tool: deploy
  arguments: { env: prod }
  expect: ask
  approver: caller
- name: a template link allows its principal
  principal: { subject: ada }
  tool: deploy
  arguments: { env: prod }
  expect: allow
  policies: [ada-deploys]
`,
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const common = () => [
  '--tools',
  join(dir, 'tools.json'),
  '--claim',
  'team=team_claim',
  '--templates',
  join(dir, 'templates.cedar'),
  '--links',
  join(dir, 'links.json'),
];

describe('mcp-warden policy', () => {
  it('test passes cases that need mapped claims, groups and template links', async () => {
    const run = await cli([
      'policy',
      'test',
      join(dir, 'deploy.cedar'),
      ...common(),
      '--cases',
      join(dir, 'cases.yaml'),
    ]);
    expect(run.stdout.trim().split('\n').at(-1)).toBe('4 passed, 0 failed');
    expect(run.code).toBe(0);
  });

  it('without the claim mapping the attribute never exists: Cedar warns, and the case fails by name', async () => {
    const args = common().filter((arg) => arg !== '--claim' && arg !== 'team=team_claim');
    const run = await cli([
      'policy',
      'test',
      join(dir, 'deploy.cedar'),
      ...args,
      '--cases',
      join(dir, 'cases.yaml'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/policy "oncall-deploys-prod": .*impossible/);
    expect(run.stdout).toContain(
      '✗ on-call is asked, from a mapped claim: expected ask, got deny (not_permitted)',
    );
    expect(run.stdout.trim().split('\n').at(-1)).toBe('3 passed, 1 failed');
  });

  it('schema prints the Mcp namespace with the mapped attribute', async () => {
    const run = await cli(['policy', 'schema', ...common()]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('namespace Mcp');
    expect(run.stdout).toMatch(/team\?: __cedar::String/);
  });

  it('a usage error exits 2', async () => {
    expect((await cli(['policy', 'frobnicate'])).code).toBe(2);
    expect(
      (await cli(['policy', 'schema', '--tools', join(dir, 'tools.json'), '--namespace', 'Other']))
        .code,
    ).toBe(2);
  });
});
