import { McpRegistry } from '../definitions/mcp-registry.service.js';
import type { Authorizer } from './authorizer.interface.js';
import { seamRequest, seamServices } from '../../../test/support/seam-guard.fixture.js';
import { ToolSeamGuard } from './tool-seam.guard.js';

function guardWith(authorizer: Authorizer | undefined) {
  const { authorization, audit, events } = seamServices({ authorizer });
  const registry = new McpRegistry();
  registry.registerTool({
    name: 'wipe',
    description: 'Destroys',
    inputSchema: { type: 'object' },
    annotations: { destructiveHint: true },
    handler: () => 'gone',
  });
  return { guard: new ToolSeamGuard(authorization, registry, audit), events };
}

describe('ToolSeamGuard', () => {
  it('never blocks: it hands the decision and the tool to the handler', () => {
    const { guard } = guardWith(() => ({ kind: 'deny', reason: 'nope' }));
    const { request, context } = seamRequest('tools/call', { name: 'wipe', arguments: { a: 1 } });
    expect(guard.canActivate(context)).toBe(true);
    expect(request.toolSeam?.decision).toEqual({ kind: 'deny', reason: 'nope' });
    expect(request.toolSeam?.entry?.tool.name).toBe('wipe');
  });

  it('shows the authorizer the raw arguments and the context the transport built', () => {
    const seen: unknown[] = [];
    const { guard } = guardWith((name, args, ctx) => {
      seen.push(name, args, ctx);
      return { kind: 'allow' };
    });
    const principal = { subject: 'alice', scopes: ['a'] };
    const { context } = seamRequest(
      'tools/call',
      { name: 'wipe', arguments: { x: '<raw>' } },
      principal,
    );
    guard.canActivate(context);
    expect(seen).toEqual([
      'wipe',
      { x: '<raw>' },
      { connId: 'c1', transport: 'http', era: 'legacy', purpose: 'call', principal },
    ]);
  });

  it('decides an unknown tool too, leaving the not-found answer to the handler', () => {
    const { guard } = guardWith(() => ({ kind: 'ask', prompt: 'sure?' }));
    const { request, context } = seamRequest('tools/call', { name: 'nope' });
    guard.canActivate(context);
    expect(request.toolSeam).toEqual({
      decision: { kind: 'ask', prompt: 'sure?' },
      entry: undefined,
    });
  });

  it('denies a sensitive tool when no authorizer is set', () => {
    const { guard } = guardWith(undefined);
    const { request, context } = seamRequest('tools/call', { name: 'wipe' });
    guard.canActivate(context);
    expect(request.toolSeam?.decision).toEqual({
      kind: 'deny',
      reason: 'sensitive_tool_unguarded',
    });
  });

  it('awaits an async authorizer and fails closed when it throws', async () => {
    const { guard } = guardWith(async () => {
      throw new Error('db down');
    });
    const { request, context } = seamRequest('tools/call', { name: 'wipe' });
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(request.toolSeam?.decision).toEqual({ kind: 'deny', reason: 'authorizer_failed' });
  });

  it('records an audit event with the principal and the detail', () => {
    const { guard, events } = guardWith(() => ({ kind: 'ask', prompt: 'really wipe?' }));
    const { context } = seamRequest('tools/call', { name: 'wipe' }, { subject: 'bob', scopes: [] });
    guard.canActivate(context);
    expect(events).toEqual([
      expect.objectContaining({
        connId: 'c1',
        transport: 'http',
        principal: 'bob',
        seam: 'tool',
        name: 'wipe',
        decision: 'ask',
        detail: 'really wipe?',
      }),
    ]);
  });
});
