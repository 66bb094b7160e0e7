import { Injectable, type INestApplication } from '@nestjs/common';
import { filter, firstValueFrom } from 'rxjs';
import {
  Authorizers,
  MCP_OPERATOR_DESK,
  McpPolicies,
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
import {
  ALICE,
  MIA,
  PolicyTools,
  bootPolicyModule as boot,
  bootedPolicyModule as booted,
  denial,
  policyApp,
  policyOptions,
} from './policy-app.js';

/*
 * The policy's life around the decision table: operator asks from the entities hook,
 * anonymous callers, the read seam, evaluation errors and failures, what Cedar cannot type or
 * hold, and every boot refusal. Tools registered at run time, the shadow set and reloads are in
 * cedar-reload.e2e-spec.ts.
 */

const meters = registerMetrics();
afterAll(() => meters.dispose());

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
