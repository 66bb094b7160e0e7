import { loadCedar } from './cedar.loader.js';
import { CedarPolicyEngine } from './cedar-policy.engine.js';
import type { AuthorizerContext } from '../../authorization/authorizer.interface.js';

/* The engine alone, on real Cedar: the decision cache never answers for a different request. */

const TOOLS = [
  {
    name: 'open',
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  },
  {
    name: 'confirm',
    inputSchema: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'number' } } },
  },
];

const TEXT = `
@id("open") permit (principal, action == Mcp::Action::"open", resource);
@id("confirm") @ask("Confirm {input.id}?")
permit (principal, action == Mcp::Action::"confirm", resource);
@id("small") @reason("too_big")
forbid (principal, action == Mcp::Action::"confirm", resource)
when { context.input has n && context.input.n.greaterThan(decimal("10.5")) };`;

const context: AuthorizerContext = {
  connId: 'c',
  transport: 'http',
  era: 'legacy',
  purpose: 'call',
  principal: { subject: 'alice', scopes: [] },
};

let engine: CedarPolicyEngine;
beforeAll(async () => {
  engine = await CedarPolicyEngine.create(
    await loadCedar(),
    'server',
    { policies: { text: TEXT } },
    TOOLS,
    { warn: () => undefined, error: () => undefined },
  );
});

const decide = (tool: string, args: Record<string, unknown>) =>
  engine.decide('tool', tool, args, context) as Awaited<ReturnType<CedarPolicyEngine['decide']>>;

describe('CedarPolicyEngine', () => {
  it('fills each ask prompt from its own arguments, cached or not', () => {
    for (let round = 0; round < 2; round += 1) {
      expect(decide('confirm', { id: 'a' }).verdict.decision).toEqual({
        kind: 'ask',
        prompt: 'Confirm a?',
      });
      expect(decide('confirm', { id: 'b' }).verdict.decision).toEqual({
        kind: 'ask',
        prompt: 'Confirm b?',
      });
    }
  });

  it('decides on numbers as Cedar decimals, and denies one Cedar cannot hold exactly', () => {
    expect(decide('confirm', { id: 'a', n: 10.5 }).verdict.decision.kind).toBe('ask');
    expect(decide('confirm', { id: 'a', n: 10.5001 }).verdict.decision).toEqual({
      kind: 'deny',
      reason: 'too_big',
    });
    expect(decide('confirm', { id: 'a', n: 10.50001 }).verdict.decision).toEqual({
      kind: 'deny',
      reason: 'input_not_representable',
    });
  });

  it('a set that never reads the context decides any arguments alike, even ones Cedar cannot hold', () => {
    expect(decide('open', { q: 'x' }).verdict).toMatchObject({
      decision: { kind: 'allow' },
      policies: ['open'],
    });
    expect(decide('open', { q: 'y', extra: 1e300 }).verdict.decision.kind).toBe('allow');
  });

  it('a different principal is a different request', () => {
    const bob = { ...context, principal: { subject: 'bob', scopes: [] } };
    const anonymous = { ...context, principal: undefined };
    expect(
      (engine.decide('tool', 'open', {}, bob) as { verdict: { decision: { kind: string } } })
        .verdict.decision.kind,
    ).toBe('allow');
    expect(
      (engine.decide('tool', 'nope', {}, anonymous) as { verdict: { decision: object } }).verdict
        .decision,
    ).toEqual({
      kind: 'deny',
      reason: 'not_permitted',
    });
  });
});
