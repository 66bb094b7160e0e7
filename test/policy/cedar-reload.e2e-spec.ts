import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  McpPolicies,
  McpPolicy,
  McpRegistry,
  McpWarden,
  type McpAuditEvent,
} from '../../src/index.js';
import { McpTestClient } from '../../src/testing/index.js';
import { registerMetrics } from '../telemetry/otel-harness.js';
import {
  ALICE,
  POLICIES,
  bootedPolicyModule as booted,
  denial,
  policyOptions,
} from './policy-app.js';

/*
 * The policy's life after boot: tools registered at run time (the schema follows, a set that no
 * longer validates keeps the old one), the shadow set and its metric, and reloads (valid,
 * invalid, and atomic under concurrent calls).
 */

const meters = registerMetrics();
afterAll(() => meters.dispose());

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
    app.get(McpWarden).audit$.subscribe((event) => event.kind === 'decision' && audit.push(event));
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
      expect.objectContaining({
        attributes: { 'mcp.server.name': 'policy-test', tool: 'transfer', kind: 'allow_deny' },
        value: 1,
      }),
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
    app.get(McpWarden).audit$.subscribe((event) => event.kind === 'decision' && audit.push(event));
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
