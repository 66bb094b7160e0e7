import type { Authorizer } from './authorizer.interface.js';
import { McpReadDeniedError } from './read-denied.error.js';
import { ReadSeamGuard, readArguments } from './read-seam.guard.js';
import { seamRequest, seamServices } from '../../../test/support/seam-guard.fixture.js';

function guardWith(readAuthorizer: Authorizer | undefined) {
  const { authorization, audit, events } = seamServices({ readAuthorizer });
  return { guard: new ReadSeamGuard(authorization, audit), events };
}

describe('ReadSeamGuard', () => {
  it('lets an allowed read through', () => {
    const { guard } = guardWith(() => ({ kind: 'allow' }));
    expect(guard.canActivate(seamRequest('resources/read', { uri: 'a://b' }).context)).toBe(true);
  });

  it('refuses a denied read with -31403 and the reason', () => {
    const { guard } = guardWith(() => ({ kind: 'deny', reason: 'not yours' }));
    const { context } = seamRequest('prompts/list', {});
    let thrown: unknown;
    try {
      guard.canActivate(context);
    } catch (error) {
      thrown = error;
    }
    // Outside the catch: a guard that let the read through leaves `thrown` undefined and fails.
    expect(thrown).toBeInstanceOf(McpReadDeniedError);
    expect(thrown).toMatchObject({
      code: -31403,
      message: 'authorization_required: prompts/list',
      data: { error: 'authorization_required', method: 'prompts/list', detail: 'not yours' },
    });
  });

  it('denies an ask without echoing its prompt, in the error or the audit', () => {
    const { guard, events } = guardWith(() => ({ kind: 'ask', prompt: 'SECRET PROMPT' }));
    const { context } = seamRequest('resources/read', { uri: 'a://b' });
    let thrown: unknown;
    try {
      guard.canActivate(context);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpReadDeniedError);
    expect(JSON.stringify(thrown)).not.toContain('SECRET');
    expect((thrown as McpReadDeniedError).data).toMatchObject({
      detail: 'interactive_approval_unsupported',
    });
    expect(JSON.stringify(events)).not.toContain('SECRET');
  });

  it('shows the authorizer only what identifies the read', () => {
    const seen: unknown[] = [];
    const { guard } = guardWith((method, args) => {
      seen.push([method, args]);
      return { kind: 'allow' };
    });
    guard.canActivate(seamRequest('resources/read', { uri: 'a://b', _meta: { x: 1 } }).context);
    guard.canActivate(seamRequest('prompts/get', { name: 'p', arguments: { a: '1' } }).context);
    guard.canActivate(seamRequest('tools/list', { cursor: 'c' }).context);
    expect(seen).toEqual([
      ['resources/read', { uri: 'a://b' }],
      ['prompts/get', { name: 'p', arguments: { a: '1' } }],
      ['tools/list', {}],
    ]);
    expect(
      readArguments(
        seamRequest('completion/complete', { ref: { type: 'ref/prompt', name: 'p' } }).request,
      ),
    ).toEqual({
      ref: { type: 'ref/prompt', name: 'p' },
    });
  });

  it('rejects asynchronously when an async authorizer denies', async () => {
    const { guard } = guardWith(async () => ({ kind: 'deny', reason: 'later' }));
    await expect(guard.canActivate(seamRequest('tools/list', {}).context)).rejects.toBeInstanceOf(
      McpReadDeniedError,
    );
  });
});
