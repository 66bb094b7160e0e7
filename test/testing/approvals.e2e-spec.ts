import type { INestApplication } from '@nestjs/common';
import { filter, firstValueFrom } from 'rxjs';
import { McpWarden, type CallToolResult } from '../../src/index.js';
import { McpTestClient, type McpApprovalRequest } from '../../src/testing/index.js';
import { createDeskApp, deskPolicy, DeskTools } from './desk-app.js';

const alice = { subject: 'alice', scopes: [] };
const bob = { subject: 'bob', scopes: [] };

/** The tool-deny result of an `ask` that did not end in approval. */
function askDenied(detail: string): CallToolResult {
  const denial = { error: 'authorization_required', tool: 'purge', decision: 'ask', detail };
  return {
    content: [{ type: 'text', text: JSON.stringify(denial) }],
    structuredContent: denial,
    isError: true,
  };
}

describe('McpTestClient: approvals', () => {
  let app: INestApplication;
  let desk: DeskTools;
  let client: McpTestClient;

  beforeEach(async () => {
    app = await createDeskApp();
    desk = app.get(DeskTools);
    client = await McpTestClient.connect(app, { principal: alice });
  });
  afterEach(async () => {
    await client.close();
    await app.close();
  });

  it('runs an ask tool once approveNext() approves it', async () => {
    const asked = client.approveNext();
    const result = await client.callTool('purge', { scope: 'all' });
    expect(result.content).toEqual([{ type: 'text', text: 'purged' }]);
    expect(desk.purges).toEqual(['alice']);
    await expect(asked).resolves.toEqual({
      tool: 'purge',
      arguments: { scope: 'all' },
      message: 'Purge everything for alice?',
    });
  });

  it('does not run the tool when declineNext() declines', async () => {
    client.declineNext();
    expect(await client.callTool('purge')).toEqual(askDenied('user declined'));
    expect(desk.purges).toEqual([]);
  });

  it('declines by default: silence is never consent', async () => {
    expect(await client.callTool('purge')).toEqual(askDenied('user declined'));
    expect(desk.purges).toEqual([]);
    // It was asked, and said no.
    expect(client.approvals).toEqual([
      { tool: 'purge', arguments: {}, message: 'Purge everything for alice?' },
    ]);
  });

  it('uses one-shot answers before the standing handler', async () => {
    const handled: McpApprovalRequest[] = [];
    client.onApproval((request) => {
      handled.push(request);
      return 'approve';
    });
    client.declineNext();
    expect(await client.callTool('purge')).toEqual(askDenied('user declined'));
    expect(handled).toEqual([]);
    expect((await client.callTool('purge')).isError).toBeFalsy();
    expect(handled).toHaveLength(1);
    expect(desk.purges).toEqual(['alice']);
  });

  it.each([
    ['cancel', 'user cancelled'],
    [{ action: 'accept', content: { approve: false } }, 'user did not approve'],
    [{ action: 'decline' }, 'user declined'],
  ] as const)('turns the answer %j into the deny %s', async (answer, detail) => {
    client.onApproval(() => answer);
    expect(await client.callTool('purge')).toEqual(askDenied(detail));
    expect(desk.purges).toEqual([]);
  });

  it('accepts the full ElicitResult shape as an approval', async () => {
    client.onApproval(async () => ({ action: 'accept', content: { approve: true } }));
    expect((await client.callTool('purge')).content).toEqual([{ type: 'text', text: 'purged' }]);
  });

  it('treats a handler that throws as a failed elicitation', async () => {
    client.onApproval(() => {
      throw new Error('no one home');
    });
    expect(await client.callTool('purge')).toEqual(askDenied('elicitation failed'));
    expect(desk.purges).toEqual([]);
  });

  it('cannot be asked without the elicitation capability: the prompt is the deny', async () => {
    const mute = await McpTestClient.connect(app, { principal: alice, capabilities: {} });
    mute.approveNext();
    expect(await mute.callTool('purge')).toEqual(askDenied('Purge everything for alice?'));
    expect(mute.approvals).toEqual([]);
    expect(desk.purges).toEqual([]);
    await mute.close();
  });

  it('close() rejects a call still waiting for approval and leaves nothing behind', async () => {
    let approvalAsked!: () => void;
    const asked = new Promise<void>((resolve) => (approvalAsked = resolve));
    // A user who never answers.
    client.onApproval(() => {
      approvalAsked();
      return new Promise<never>(() => undefined);
    });
    const call = client.callTool('purge');
    await asked;
    expect(app.get(McpWarden).stats().pendingClientRequests).toBe(1);

    await client.close();
    await expect(call).rejects.toThrow('closed');
    expect(app.get(McpWarden).stats()).toEqual({
      connections: 0,
      inFlight: 0,
      pendingClientRequests: 0,
    });
    expect(desk.purges).toEqual([]);
  });
});

describe('McpTestClient: two principals side by side', () => {
  let app: INestApplication;
  let desk: DeskTools;
  const seen: (string | undefined)[] = [];

  beforeEach(async () => {
    seen.length = 0;
    app = await createDeskApp({ authorizer: deskPolicy(seen) });
    desk = app.get(DeskTools);
  });
  afterEach(() => app.close());

  it("shows the authorizer each client's own principal", async () => {
    const asAlice = await McpTestClient.connect(app, { principal: alice });
    const asBob = await McpTestClient.connect(app, { principal: bob });

    seen.length = 0;
    expect((await asAlice.callTool('greet', { name: 'Ann' })).isError).toBeFalsy();
    expect(seen).toEqual(['alice']);
    seen.length = 0;
    const denied = await asBob.callTool('greet', { name: 'Ann' });
    expect(seen).toEqual(['bob']);
    expect(denied.structuredContent).toMatchObject({ decision: 'deny', detail: 'alice only' });

    expect((await asAlice.listTools()).map((tool) => tool.name)).toContain('greet');
    expect((await asBob.listTools()).map((tool) => tool.name)).not.toContain('greet');
    await asAlice.close();
    await asBob.close();
  });

  it('sends each approval only to the client whose call asked for it', async () => {
    const asAlice = await McpTestClient.connect(app, { principal: alice });
    const asBob = await McpTestClient.connect(app, { principal: bob });
    const bobAsked = firstValueFrom(
      asBob.outbound.pipe(
        filter((message) => 'method' in message && message.method === 'elicitation/create'),
      ),
    );
    asAlice.onApproval(() => 'approve');
    asBob.onApproval(() => 'decline');

    const [aliceResult, bobResult] = await Promise.all([
      asAlice.callTool('purge'),
      asBob.callTool('purge'),
    ]);
    expect(aliceResult.content).toEqual([{ type: 'text', text: 'purged' }]);
    expect(bobResult).toEqual(askDenied('user declined'));
    expect(desk.purges).toEqual(['alice']);
    expect(asAlice.approvals.map((request) => request.message)).toEqual([
      'Purge everything for alice?',
    ]);
    expect(asBob.approvals.map((request) => request.message)).toEqual([
      'Purge everything for bob?',
    ]);
    expect(await bobAsked).toMatchObject({ params: { message: 'Purge everything for bob?' } });

    await asAlice.close();
    await asBob.close();
    expect(app.get(McpWarden).stats().connections).toBe(0);
  });
});
