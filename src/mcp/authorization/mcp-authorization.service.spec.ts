import { jest } from '@jest/globals';
import { seamServices } from '../../../test/support/seam-guard.fixture.js';
import type { Authorizer, AuthorizerContext } from './authorizer.interface.js';
import { AUTHORIZER_TIMEOUT } from './mcp-authorization.service.js';

const call: AuthorizerContext = { connId: 'c1', transport: 'http', purpose: 'call' };

/** A policy that needs a known id to run `archive`, written with the purpose in mind. */
const byId: Authorizer = (name, args, context) => {
  if (context.purpose === 'visibility') return { kind: 'allow' };
  return args.id === 'n1' ? { kind: 'allow' } : { kind: 'deny', reason: 'unknown_id' };
};

function recording(decide: Authorizer) {
  const seen: { name: string; args: Record<string, unknown>; context: AuthorizerContext }[] = [];
  const authorizer: Authorizer = (name, args, context) => {
    seen.push({ name, args, context });
    return decide(name, args, context);
  };
  return { authorizer, seen };
}

describe('McpAuthorizationService', () => {
  afterEach(() => jest.useRealTimers());

  it('asks a visibility check with empty arguments and purpose "visibility"', () => {
    const { authorizer, seen } = recording(() => ({ kind: 'allow' }));
    const { authorization } = seamServices({ authorizer });
    // Whatever context the caller hands in, the check reaches the policy as a visibility check.
    expect(authorization.isToolVisible('archive', false, call)).toBe(true);
    expect(seen).toEqual([
      {
        name: 'archive',
        args: {},
        context: { connId: 'c1', transport: 'http', purpose: 'visibility' },
      },
    ]);
    expect(call.purpose).toBe('call');
  });

  it('passes a call through with its own context', () => {
    const { authorizer, seen } = recording(() => ({ kind: 'allow' }));
    const { authorization } = seamServices({ authorizer });
    authorization.decideTool('archive', { id: 'n1' }, call, false);
    expect(seen).toEqual([{ name: 'archive', args: { id: 'n1' }, context: call }]);
  });

  it('lets an argument-dependent policy show a tool it still denies a bad call of', () => {
    const { authorization } = seamServices({ authorizer: byId });
    expect(authorization.isToolVisible('archive', false, call)).toBe(true);
    expect(authorization.decideTool('archive', { id: 'n1' }, call, false)).toEqual({
      kind: 'allow',
    });
    expect(authorization.decideTool('archive', { id: 'zz' }, call, false)).toEqual({
      kind: 'deny',
      reason: 'unknown_id',
    });
  });

  it('hides a tool from a policy that ignores the purpose and denies missing arguments', () => {
    const naive: Authorizer = (_name, args) =>
      args.id === 'n1' ? { kind: 'allow' } : { kind: 'deny', reason: 'unknown_id' };
    const { authorization } = seamServices({ authorizer: naive });
    expect(authorization.isToolVisible('archive', false, call)).toBe(false);
  });

  it('keeps a visibility check that timed out from denying the calls that follow', async () => {
    jest.useFakeTimers();
    const hangsOnVisibility: Authorizer = (_name, _args, context) =>
      context.purpose === 'visibility' ? new Promise(() => undefined) : { kind: 'allow' };
    const { authorization } = seamServices({
      authorizer: hangsOnVisibility,
      limits: { authorizerTimeoutMs: 50 },
    });
    const visible = authorization.isToolVisible('archive', false, call);
    await jest.advanceTimersByTimeAsync(50);
    await expect(visible).resolves.toBe(false);
    // The breaker remembers the hung visibility check, not the call.
    expect(authorization.isToolVisible('archive', false, call)).toBe(false);
    expect(authorization.decideTool('archive', {}, call, false)).toEqual({ kind: 'allow' });
    expect(
      authorization.decideTool('archive', {}, { ...call, purpose: 'visibility' }, false),
    ).toEqual({
      kind: 'deny',
      reason: AUTHORIZER_TIMEOUT,
    });
  });
});
