import { Authorizers } from './authorizers.js';

const context = { connId: 'c1', transport: 'stdio' as const, purpose: 'call' as const };

describe('Authorizers', () => {
  it('allowAll allows anything', async () => {
    expect(await Authorizers.allowAll()('x', {}, context)).toEqual({ kind: 'allow' });
  });

  it('denyAll denies with "denied" or the given reason', async () => {
    expect(await Authorizers.denyAll()('x', {}, context)).toEqual({
      kind: 'deny',
      reason: 'denied',
    });
    expect(await Authorizers.denyAll('no')('x', {}, context)).toEqual({
      kind: 'deny',
      reason: 'no',
    });
  });

  it('allowlist allows listed names and denies the rest with not_allowlisted', async () => {
    const authorizer = Authorizers.allowlist(['a']);
    expect(await authorizer('a', {}, context)).toEqual({ kind: 'allow' });
    expect(await authorizer('b', {}, context)).toEqual({ kind: 'deny', reason: 'not_allowlisted' });
  });

  it('decide treats undefined as allow and awaits async authorizers', async () => {
    expect(await Authorizers.decide(undefined, 'x', {}, context)).toEqual({ kind: 'allow' });
    const asking = async () => ({ kind: 'ask' as const, prompt: 'sure?' });
    expect(await Authorizers.decide(asking, 'x', {}, context)).toEqual({
      kind: 'ask',
      prompt: 'sure?',
    });
  });

  it('decide passes name, args and context through', async () => {
    const seen: unknown[] = [];
    await Authorizers.decide(
      (...args) => {
        seen.push(args);
        return { kind: 'allow' };
      },
      'tool',
      { a: 1 },
      context,
    );
    expect(seen).toEqual([['tool', { a: 1 }, context]]);
  });
});
