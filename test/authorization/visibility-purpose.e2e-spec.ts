import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Authorizers, type Authorizer } from '../../src/index.js';
import { archivePolicy, NOTES_WRITE } from '../../examples/snippets/argument-policy.js';
import { createHttpApp, type HttpTestApp } from '../support/http-app.js';
import { MODERN } from '../modern/modern-app.js';
import { denial, NoteTools, recorder } from './authorization-app.js';

/*
 * `context.purpose` tells a visibility check (`tools/list`, asked with `{}`)
 * from a call, so a policy that decides on arguments can list a tool and
 * still deny a bad call of it. The policy is the one docs/authorization.md
 * shows; the official SDK client drives it in both protocol eras.
 */

const policy = archivePolicy({
  ownerOf: async (id) => (id === 'n1' ? 'alice' : id === 'n2' ? 'bob' : undefined),
});

const ERAS = [
  ['legacy', undefined],
  ['modern', { mode: { pin: MODERN } }],
] as const;

describe.each(ERAS)('authorizer purpose (%s era, SDK client)', (era, versionNegotiation) => {
  let t: HttpTestApp | undefined;
  let client: Client | undefined;

  async function connect(authorizer: Authorizer): Promise<Client> {
    t = await createHttpApp(
      {
        authorizer,
        authorizerSource: 'configured',
        readAuthorizer: Authorizers.allowAll(),
        http: { authenticate: () => ({ subject: 'alice', scopes: [NOTES_WRITE] }) },
      },
      [NoteTools],
    );
    client = new Client(
      { name: 'purpose-test', version: '1.0.0' },
      versionNegotiation ? { versionNegotiation } : {},
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(t.url)));
    expect(client.getProtocolEra()).toBe(era);
    return client;
  }

  afterEach(async () => {
    await client?.close();
    await t?.close();
    client = undefined;
    t = undefined;
  });

  it('asks tools/list with purpose "visibility" and a call with purpose "call"', async () => {
    const { authorizer, calls } = recorder(policy);
    const sdk = await connect(authorizer);
    await sdk.listTools();
    await sdk.callTool({ name: 'archive_note', arguments: { id: 'n1' } });
    const archive = calls.filter((call) => call.name === 'archive_note');
    expect(archive.map(({ args, context }) => [args, context.purpose])).toEqual([
      [{}, 'visibility'],
      [{ id: 'n1' }, 'call'],
    ]);
  });

  it('lists the tool an argument-dependent policy guards, and still denies a bad call', async () => {
    const sdk = await connect(policy);
    const { tools } = await sdk.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['archive_note']);
    const unknown = await sdk.callTool({ name: 'archive_note', arguments: { id: 'zz' } });
    expect(unknown).toMatchObject(denial('archive_note', 'deny', 'unknown_note'));
    // This client cannot be asked, so someone else's note is refused with the prompt.
    const others = await sdk.callTool({ name: 'archive_note', arguments: { id: 'n2' } });
    expect(others).toMatchObject(denial('archive_note', 'ask', 'Archive note n2, written by bob?'));
    const own = await sdk.callTool({ name: 'archive_note', arguments: { id: 'n1' } });
    expect(own.content).toEqual([{ type: 'text', text: 'archived n1' }]);
    expect(t!.app.get(NoteTools).ran).toEqual(['archive_note']);
  });

  it('hides the tool from the same policy when it cannot tell a listing from a call', async () => {
    const blind: Authorizer = (name, args, context) =>
      policy(name, args, { ...context, purpose: 'call' });
    const sdk = await connect(blind);
    const { tools } = await sdk.listTools();
    expect(tools).toEqual([]);
  });
});
