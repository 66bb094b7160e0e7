import { Injectable, type INestApplication } from '@nestjs/common';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import {
  Authorizers,
  MCP_OPERATOR_DESK,
  McpPolicies,
  McpPolicy,
  McpRegistry,
  McpWarden,
  type McpAuditEvent,
  type McpOperatorAsk,
  type McpOperatorDesk,
} from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';
import { bootOutcome } from '../support/boot-outcome.js';
import { registerMetrics } from '../telemetry/otel-harness.js';
import { Test } from '@nestjs/testing';
import { McpModule, McpTool } from '../../src/index.js';
import { POLICIES, PolicyTools, policyApp, policyOptions } from './policy-app.js';

/*
 * The policy's life around the decision table: operator asks from the entities hook,
 * anonymous callers, the read seam, every boot refusal, tools registered at run time, the
 * shadow set and its metric, and reloads (valid, invalid, and atomic under concurrent calls).
 */

const meters = registerMetrics();
afterAll(() => meters.dispose());

const MIA = { subject: 'mia', scopes: ['ops'], issuer: 'https://issuer.example', claims: {} };
const ALICE = {
  subject: 'alice',
  scopes: ['pay'],
  issuer: 'https://issuer.example',
  claims: { groups: ['payers'], dept: 'eng' },
};

async function boot(policy = McpPolicies.cedar(policyOptions()), extra: object = {}) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'policy-test', version: '1.0.0', policy, ...extra })],
    providers: [PolicyTools],
  }).compile();
  return moduleRef.createNestApplication({ logger: false });
}

async function booted(policy = McpPolicies.cedar(policyOptions())): Promise<INestApplication> {
  const app = await boot(policy);
  await app.init();
  return app;
}

function denial(tool: string, detail: string) {
  return { error: 'authorization_required', tool, decision: 'deny', detail };
}

describe('Cedar: asks, anonymous callers and reads', () => {
  let app: INestApplication;
  const audit: McpAuditEvent[] = [];
  beforeAll(async () => {
    app = await policyApp({}, 0);
    app.get(McpWarden).audit$.subscribe((event) => audit.push(event));
  });
  afterAll(() => app.close());

  it('a role from the entities hook makes an @approver("operator") ask, with its policy on the ask', async () => {
    const desk = app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
    const client = await McpTestClient.connect(app, { principal: MIA });
    const pending = firstValueFrom(desk.events$.pipe(filter((event) => event.type === 'pending')));
    const call = client.callTool('reset', { reason: 'disk full' });
    const ask = ((await pending) as { ask: McpOperatorAsk }).ask;
    expect(ask).toMatchObject({
      tool: 'reset',
      prompt: 'Reset because disk full?',
      policies: ['reset-maintainers-ask-operator'],
    });
    const olga = { subject: 'olga', issuer: 'https://issuer.example', scopes: ['mcp:approve'] };
    await desk.decide(ask.id, olga, { approve: false, reason: 'not now', via: 'api' });
    expect((await call).structuredContent).toEqual({
      error: 'authorization_required',
      tool: 'reset',
      decision: 'ask',
      detail: 'operator denied: not now',
    });
    await client.close();
  });

  it('an anonymous caller is Mcp::Anonymous: only unscoped permits apply', async () => {
    const client = await McpTestClient.connect(app);
    expect((await client.callTool('search', { q: 'x' })).content).toEqual([
      { type: 'text', text: 'searched x' },
    ]);
    expect((await client.callTool('confirm', { id: 'a' })).structuredContent).toEqual(
      denial('confirm', 'not_permitted'),
    );
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['search']);
    await client.close();
  });

  it('read methods are actions too: a forbid on the read seam denies with its reason only', async () => {
    const reads = `
      @id("reads") permit (principal, action in Mcp::Action::"mcp/read", resource);
      @id("no-prompts") @reason("prompts_closed")
      forbid (principal, action == Mcp::Action::"prompts/list", resource);
      @id("tools") permit (principal, action in Mcp::Action::"tools/call", resource);`;
    const other = await booted(McpPolicies.cedar({ policies: { text: reads } }));
    const client = await McpTestClient.connect(other);
    await expect(client.listPrompts()).rejects.toMatchObject({
      data: { error: 'authorization_required', method: 'prompts/list', detail: 'prompts_closed' },
    });
    expect((await client.listTools()).length).toBe(5);
    await client.close();
    await other.close();
  });

  it('an @ask on a read denies without echoing the prompt', async () => {
    const reads = `
      @id("ask-list") @ask("SECRET PROMPT") permit (principal, action == Mcp::Action::"tools/list", resource);`;
    const other = await booted(McpPolicies.cedar({ policies: { text: reads } }));
    const client = await McpTestClient.connect(other);
    const failure = await client.listTools().catch((error: Error) => error);
    expect(failure).toMatchObject({
      data: { method: 'tools/list', detail: 'interactive_approval_unsupported' },
    });
    expect(JSON.stringify(failure)).not.toContain('SECRET PROMPT');
    await client.close();
    await other.close();
  });
});

@Injectable()
class SensitiveTools {
  @McpTool({ description: 'Drops everything.', sensitive: true })
  drop() {
    return 'dropped';
  }
}

describe('Cedar: evaluation errors', () => {
  it('a policy that errors does not apply, and the error is counted', async () => {
    const before = errorsCounted(await meters.collect());
    const app = await booted();
    const client = await McpTestClient.connect(app, { principal: ALICE });
    // A string amount is left out of context.input: transfer-limit errors reading it and does
    // not apply (Cedar's semantics); input validation then refuses the call.
    const result = await client.callTool('transfer', { amount: 'lots', to: 'x' });
    expect(result.isError).toBe(true);
    expect(errorsCounted(await meters.collect())).toBe(before + 1);
    await client.close();
    await app.close();
  });
});

function errorsCounted(collected: Map<string, { dataPoints: { value: unknown }[] }>): number {
  const points = collected.get('mcp_warden.policy.errors')?.dataPoints ?? [];
  return points.reduce((sum, point) => sum + Number(point.value), 0);
}

describe('Cedar: failures deny', () => {
  it.each([
    [
      'the entities hook throws',
      () => {
        throw new Error('directory down');
      },
    ],
    ['the entities hook rejects', () => Promise.reject(new Error('directory down'))],
    // Cedar has no null: the engine refuses the request itself.
    [
      'the engine refuses an entity',
      () => [{ uid: { type: 'Mcp::Role', id: 'r' }, attrs: { bad: null } }],
    ],
  ])('%s: policy_failed', async (_name, entities) => {
    const app = await booted(
      McpPolicies.cedar({ ...policyOptions(), entities: entities as never }),
    );
    const client = await McpTestClient.connect(app, { principal: ALICE });
    expect((await client.callTool('search', { q: 'x' })).structuredContent).toEqual(
      denial('search', 'policy_failed'),
    );
    await client.close();
    await app.close();
  });
});

describe('Cedar: what it cannot type', () => {
  @Injectable()
  class UnionTools {
    @McpTool({
      description: 'Takes a union.',
      inputSchema: {
        type: 'object',
        properties: {
          when: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          n: { type: 'integer' },
        },
      },
    })
    pick() {
      return 'picked';
    }
  }

  async function bootUnion(text: string) {
    const warnings: string[] = [];
    const logger = {
      log: () => undefined,
      error: () => undefined,
      warn: (message: unknown) => void warnings.push(String(message)),
      debug: () => undefined,
      verbose: () => undefined,
    };
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({
          name: 'union',
          version: '1',
          policy: McpPolicies.cedar({ policies: { text } }),
        }),
      ],
      providers: [UnionTools],
    }).compile();
    const app = moduleRef.createNestApplication({ logger });
    return { app, warnings, failure: await bootOutcome(app) };
  }

  it('leaves a oneOf property out with one warning naming the tool and property', async () => {
    const { app, warnings, failure } = await bootUnion(
      '@id("p") permit (principal, action == Mcp::Action::"pick", resource) when { context.input has n && context.input.n > 1 };',
    );
    expect(failure).toBeUndefined();
    expect(warnings.filter((warning) => warning.includes('"when"'))).toEqual([
      expect.stringMatching(
        /tool "pick" property "when" is left out of context\.input \(`oneOf` has no Cedar type\)/,
      ),
    ]);
    await app.close();
  });

  it('a policy that reads it fails validation', async () => {
    const { failure } = await bootUnion(
      '@id("p") permit (principal, action == Mcp::Action::"pick", resource) when { context.input.when == "now" };',
    );
    expect(String(failure?.message)).toMatch(/policy "p": .*when/);
  });
});

describe('Cedar: arguments Cedar cannot hold', () => {
  it('an integer beyond 2^53 is denied, never left out for a forbid to miss', async () => {
    const app = await booted();
    const client = await McpTestClient.connect(app, { principal: ALICE });
    // transfer-limit would error on a left-out amount and not apply; the permit would allow.
    expect(
      (await client.callTool('transfer', { amount: 1e20, to: 'x' })).structuredContent,
    ).toEqual(denial('transfer', 'input_not_representable'));
    await client.close();
    await app.close();
  });
});

describe('Cedar: boot refusals', () => {
  it('policy with authorizer or readAuthorizer fails boot, saying why', async () => {
    for (const closure of [
      { authorizer: Authorizers.allowAll() },
      { readAuthorizer: Authorizers.allowAll() },
    ]) {
      // The options are resolved when the module compiles: it never gets as far as init.
      await expect(boot(undefined, closure)).rejects.toThrow(/`policy` decides both seams/);
    }
  });

  it.each([
    [
      'a parse error',
      'permit (principal, action, resource) when { 1 + };',
      /policies:1:\d+: .*unexpected token/,
    ],
    [
      'a tool that does not exist',
      'permit (principal, action == Mcp::Action::"nope", resource);',
      /policies:1:\d+: policy "policies:0": .*unrecognized action `Mcp::Action::"nope"`/,
    ],
    [
      'an attribute the input does not have',
      'permit (principal, action == Mcp::Action::"transfer", resource) when { context.input.color == "red" };',
      /policies:1:\d+: policy "policies:0": .*color/,
    ],
    [
      'a duplicate @id',
      '@id("a") permit (principal, action, resource);\n@id("a") forbid (principal, action, resource);',
      /policy id "a" is used twice/,
    ],
  ])('%s fails boot with file:line:col and Cedar’s message', async (_name, text, message) => {
    const app = await boot(McpPolicies.cedar({ policies: { text } }));
    const failure = await bootOutcome(app);
    expect(String(failure?.message)).toMatch(message);
  });

  it('a policy set satisfies the network boot check and the sensitive-tool refusal', async () => {
    // A sensitive tool over HTTP with the boot guard armed: without closures, the policy counts.
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({
          name: 'policy-test',
          version: '1.0.0',
          transport: 'http',
          requireAuthorization: true,
          policy: McpPolicies.cedar(policyOptions()),
        }),
      ],
      providers: [PolicyTools, SensitiveTools],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    const warden = app.get(McpWarden);
    expect(warden.authorizationConfigured()).toBe(true);
    expect(warden.readAuthorizationConfigured()).toBe(true);
    await app.close();
  });
});

describe('Cedar: tools registered at run time', () => {
  it('tools registered at run time join the schema: hidden and denied without a permit, allowed by one', async () => {
    const text = `${POLICIES}
      @id("limits") forbid (principal, action in Mcp::Action::"tools/call", resource)
      when { context.input has amount && context.input.amount > 5 };`;
    const app = await booted(McpPolicies.cedar({ ...policyOptions(), policies: { text } }));
    const registry = app.get(McpRegistry);
    const policy = app.get(McpPolicy);
    const before = policy.version;
    registry.registerTool({
      name: 'late',
      description: 'Registered after boot.',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      handler: () => 'late ran',
    });
    // `context.input has amount` validates for any input; the tool has no permit, so it is
    // hidden and denied.
    const client = await McpTestClient.connect(app, { principal: ALICE });
    await waitFor(async () => {
      const result = await client.callTool('late', {});
      return (result.structuredContent as { detail?: string })?.detail === 'not_permitted';
    });
    expect((await client.listTools()).map((tool) => tool.name)).not.toContain('late');
    expect(policy.version).toBe(before);
    // `context.input.amount` read without `has` cannot validate against a string `amount`.
    const strict = await booted(
      McpPolicies.cedar({
        ...policyOptions(),
        policies: {
          text: `${POLICIES}
          @id("any") permit (principal, action in Mcp::Action::"tools/call", resource);
          @id("cap") forbid (principal, action == Mcp::Action::"transfer", resource) when { context.input.amount > 9 };`,
        },
      }),
    );
    strict.get(McpRegistry).registerTool({
      name: 'late_any',
      description: 'Allowed by "any" if it were validated.',
      inputSchema: { type: 'object', properties: { amount: { type: 'string' } } },
      handler: () => 'ran',
    });
    const other = await McpTestClient.connect(strict, { principal: ALICE });
    // The set still validates (the forbid names transfer only): late_any is decided by "any".
    await waitFor(async () => (await other.listTools()).some((tool) => tool.name === 'late_any'));
    expect((await other.callTool('late_any', { amount: 'x' })).content).toEqual([
      { type: 'text', text: 'ran' },
    ]);
    await other.close();
    await strict.close();
    await client.close();
    await app.close();
  });

  it('a tool registered later that the set cannot validate against denies with policy_invalid_for_tool', async () => {
    const text = `${POLICIES}
      @id("any") permit (principal, action in Mcp::Action::"tools/call", resource);
      @id("cap") forbid (principal, action in Mcp::Action::"tools/call", resource)
      when { context.input has amount && context.input.amount > 9 };`;
    const app = await booted(McpPolicies.cedar({ ...policyOptions(), policies: { text } }));
    // A string `amount` makes `amount > 9` ill-typed: the set no longer validates for it.
    app.get(McpRegistry).registerTool({
      name: 'late',
      description: 'Its amount is a string.',
      inputSchema: { type: 'object', properties: { amount: { type: 'string' } } },
      handler: () => 'must not run',
    });
    const client = await McpTestClient.connect(app, { principal: ALICE });
    await waitFor(async () => {
      const result = await client.callTool('late', { amount: '1' });
      return (
        (result.structuredContent as { detail?: string })?.detail === 'policy_invalid_for_tool'
      );
    });
    expect((await client.listTools()).map((tool) => tool.name)).not.toContain('late');
    // A reload of the same set keeps it closed: it was never validated against it.
    expect((await app.get(McpPolicy).reload()).applied).toBe(true);
    expect((await client.callTool('late', { amount: '1' })).structuredContent).toEqual(
      denial('late', 'policy_invalid_for_tool'),
    );
    // The tools the set was validated against keep their decisions.
    expect((await client.callTool('search', { q: 'x' })).content).toEqual([
      { type: 'text', text: 'searched x' },
    ]);
    await client.close();
    await app.close();
  });
});

describe('Cedar: shadow set and reloads', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cedar-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('the shadow set is evaluated, recorded and counted, never enforced', async () => {
    const shadow = POLICIES.replace('"transfer-limit")', '"transfer-limit-strict")').replace(
      'context.input.amount > 1000',
      'context.input.amount > 5',
    );
    const app = await booted(McpPolicies.cedar({ ...policyOptions(), shadow: { text: shadow } }));
    const audit: McpAuditEvent[] = [];
    app.get(McpWarden).audit$.subscribe((event) => audit.push(event));
    const client = await McpTestClient.connect(app, { principal: ALICE });
    expect((await client.callTool('transfer', { amount: 10, to: 'x' })).content).toEqual([
      { type: 'text', text: 'sent 10 to x' },
    ]);
    expect(audit.find((event) => event.name === 'transfer')).toMatchObject({
      decision: 'allow',
      policies: ['transfer-payers'],
      shadow: { decision: 'deny', policies: ['transfer-limit-strict'] },
    });
    const metric = (await meters.collect()).get('mcp_warden.policy.shadow_disagreements');
    expect(metric?.dataPoints).toEqual([
      expect.objectContaining({ attributes: { tool: 'transfer', kind: 'allow_deny' }, value: 1 }),
    ]);
    const info = (await meters.collect()).get('mcp_warden.policy.info');
    expect(info?.dataPoints.map((point) => point.attributes.version)).toContain(
      app.get(McpPolicy).version,
    );
    await client.close();
    await app.close();
  });

  it('reload applies a valid set, refuses an invalid one and keeps the old', async () => {
    const file = join(dir, 'a.cedar');
    await writeFile(file, POLICIES);
    const app = await booted(McpPolicies.cedar({ ...policyOptions(), policies: { dir } }));
    const policy = app.get(McpPolicy);
    const first = policy.version;
    const client = await McpTestClient.connect(app, { principal: ALICE });
    expect(
      (await client.callTool('transfer', { amount: 2000, to: 'x' })).structuredContent,
    ).toEqual(denial('transfer', 'over_limit'));
    await writeFile(file, POLICIES.replace('> 1000', '> 5000'));
    const applied = await policy.reload();
    expect(applied).toEqual({ applied: true, version: policy.version });
    expect(policy.version).not.toBe(first);
    expect((await client.callTool('transfer', { amount: 2000, to: 'x' })).content).toEqual([
      { type: 'text', text: 'sent 2000 to x' },
    ]);
    const kept = policy.version;
    await writeFile(
      file,
      `${POLICIES}\npermit (principal, action == Mcp::Action::"nope", resource);`,
    );
    const refused = await policy.reload();
    expect(refused.applied).toBe(false);
    expect(refused.errors?.join('\n')).toMatch(/a\.cedar:\d+:\d+: .*unrecognized action/);
    expect(policy.version).toBe(kept);
    const failures = (await meters.collect()).get('mcp_warden.policy.reload_failures');
    expect(failures?.dataPoints[0]?.value).toBeGreaterThanOrEqual(1);
    await client.close();
    await app.close();
  });

  it('under concurrent calls a reload is atomic: every decision matches the version that took it', async () => {
    const file = join(dir, 'a.cedar');
    const allowSet = POLICIES.replace('> 1000', '> 100000');
    await writeFile(file, POLICIES);
    const app = await booted(McpPolicies.cedar({ ...policyOptions(), policies: { dir } }));
    const policy = app.get(McpPolicy);
    const strictVersion = policy.version;
    const audit: McpAuditEvent[] = [];
    app.get(McpWarden).audit$.subscribe((event) => audit.push(event));
    const client = await McpTestClient.connect(app, { principal: ALICE });
    const calls: Promise<unknown>[] = [];
    for (let round = 0; round < 6; round += 1) {
      await writeFile(file, round % 2 === 0 ? allowSet : POLICIES);
      const reloading = policy.reload();
      for (let index = 0; index < 30; index += 1) {
        calls.push(client.callTool('transfer', { amount: 5000, to: `r${round}-${index}` }));
      }
      await reloading;
    }
    await Promise.all(calls);
    const decisions = audit.filter((event) => event.name === 'transfer');
    expect(decisions).toHaveLength(180);
    const versions = new Set(decisions.map((event) => event.policyVersion));
    expect(versions.size).toBe(2);
    for (const event of decisions) {
      // The strict set denies 5000; the other allows it. A mix would break this pairing.
      expect(event.decision).toBe(event.policyVersion === strictVersion ? 'deny' : 'allow');
    }
    await client.close();
    await app.close();
  });

  it('watch: true applies an edited folder without a call to reload()', async () => {
    const file = join(dir, 'a.cedar');
    await writeFile(file, POLICIES);
    const app = await booted(
      McpPolicies.cedar({ ...policyOptions(), policies: { dir }, watch: true }),
    );
    const policy = app.get(McpPolicy);
    const first = policy.version;
    await writeFile(file, POLICIES.replace('> 1000', '> 7000'));
    await waitFor(async () => policy.version !== first);
    const client = await McpTestClient.connect(app, { principal: ALICE });
    expect((await client.callTool('transfer', { amount: 5000, to: 'x' })).content).toEqual([
      { type: 'text', text: 'sent 5000 to x' },
    ]);
    await client.close();
    await app.close();
  });
});

/* Polls a condition the server reaches on its own (a file event, a registry change). */
async function waitFor(check: () => Promise<boolean> | boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
