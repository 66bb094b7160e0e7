import { McpUrlElicitations } from '../../src/index.js';
import { relatedRequestOf } from '../../src/testing/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { listen, type Outbound } from '../support/outbound.js';
import { GAPS_PROVIDERS, connectUrl } from './spec-gaps-app.js';

/*
 * Where URL elicitation messages go, observed on the server's own outbound
 * channels (in process, so "nothing was sent" is exact): a completion reaches
 * the initiating connection only, tagged with the request that asked; a
 * closed connection's elicitations are gone; a resource throwing -32042 is
 * answered as one only where URL mode was declared.
 */

type Msg = Record<string, any>;

describe('URL elicitation routing', () => {
  let t: McpTestApp;

  beforeEach(async () => {
    t = await createMcpApp({}, GAPS_PROVIDERS);
  });

  afterEach(() => t.close());

  async function connect(connId: string, capabilities: object): Promise<Outbound> {
    const outbound = listen(t.server, connId);
    await t.initialize(connId, capabilities);
    return outbound;
  }

  /** Calls connect_calendar on `connId`, accepts, and returns the id and the call's request id. */
  async function elicitOn(connId: string, outbound: Outbound, callId: number) {
    const asked = outbound.next((m) => m.method === 'elicitation/create');
    const call = t.server.handleMessage(
      { jsonrpc: '2.0', id: callId, method: 'tools/call', params: { name: 'connect_calendar' } },
      connId,
    );
    const request = await asked;
    await t.server.handleMessage(
      { jsonrpc: '2.0', id: request.id, result: { action: 'accept' } },
      connId,
    );
    expect(((await call) as Msg).result.structuredContent.action).toBe('accept');
    return request.params.elicitationId as string;
  }

  const completions = (outbound: Outbound) =>
    outbound.ofMethod('notifications/elicitation/complete');

  it('sends the completion to the initiating connection only, related to its call', async () => {
    const a = await connect('a', { elicitation: { url: {} } });
    const b = await connect('b', { elicitation: { url: {} } });
    const id = await elicitOn('a', a, 41);
    expect(t.app.get(McpUrlElicitations).complete(id)).toBe(true);
    const [notice] = completions(a);
    expect(notice).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/elicitation/complete',
      params: { elicitationId: id },
    });
    expect(relatedRequestOf(notice)).toBe(41);
    expect(completions(b)).toEqual([]);
  });

  it('forgets the elicitations of a connection that closed', async () => {
    const a = await connect('a', { elicitation: { url: {} } });
    const id = await elicitOn('a', a, 1);
    const elicitations = t.app.get(McpUrlElicitations);
    expect(elicitations.find(id)?.connId).toBe('a');
    a.subscription.unsubscribe();
    expect(elicitations.find(id)).toBeUndefined();
    expect(elicitations.complete(id)).toBe(false);
    // The same connId, connected again, is a new connection: it never hears of the old one.
    const again = await connect('a', { elicitation: { url: {} } });
    expect(elicitations.complete(id)).toBe(false);
    expect(completions(again)).toEqual([]);
  });

  it('answers a resource that throws -32042 with the error where URL mode was declared', async () => {
    await connect('a', { elicitation: { url: {} } });
    const response = await t.request('resources/read', { uri: 'docs://private' }, 'a');
    expect(response.error).toEqual({
      code: -32042,
      message: 'This request requires more information.',
      data: {
        elicitations: [
          {
            mode: 'url',
            elicitationId: 'private-doc',
            url: connectUrl('private-doc'),
            message: 'Sign in first',
          },
        ],
      },
    });
    expect(t.app.get(McpUrlElicitations).find('private-doc')?.connId).toBe('a');
  });

  it('answers it with a plain -32603 saying why to a client without URL mode', async () => {
    await connect('b', { elicitation: {} });
    const response = await t.request('resources/read', { uri: 'docs://private' }, 'b');
    expect(response.error).toEqual({
      code: -32603,
      message:
        'This request needs the user to complete a URL-mode elicitation, which the client did not declare',
    });
    expect(t.app.get(McpUrlElicitations).find('private-doc')).toBeUndefined();
  });
});
