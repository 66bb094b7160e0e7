import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ElicitationCompleteNotificationSchema,
  ErrorCode,
  UrlElicitationRequiredError,
  type CallToolResult,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { McpUrlElicitations } from '../../src/index.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import {
  CalendarStore,
  ConnectPage,
  GAPS_OPTIONS,
  GAPS_PROVIDERS,
  calendarElicitationId,
  connectAs,
  connectUrl,
  sdkClient,
} from './spec-gaps-app.js';

/*
 * URL-mode elicitation end to end with the SDK client (spec 2025-11-25):
 * `ctx.elicitUrl()` sends an id the page can tell apart, the app completes it
 * with `McpUrlElicitations.complete()` (only the initiating client hears of
 * it), and a tool may throw `McpUrlElicitationRequiredError` (-32042), which
 * only a client that declared URL mode receives.
 */

interface Completions {
  next: Deferred<string>;
}

describe.each(ADAPTERS)('URL elicitation on %s', (adapter) => {
  let t: HttpTestApp;
  const clients: Client[] = [];
  const answer: { current: ElicitResult } = { current: { action: 'accept' } };
  const asked: ElicitRequest[] = [];

  beforeAll(async () => {
    t = await createHttpApp(GAPS_OPTIONS, GAPS_PROVIDERS, adapter);
  });

  afterAll(async () => {
    for (const client of clients) await client.close();
    await t?.close();
  });

  beforeEach(() => {
    asked.length = 0;
    answer.current = { action: 'accept' };
    t.app.get(CalendarStore).connected.clear();
  });

  /** A client of `user` declaring `elicitation`, recording completion notices. */
  async function connect(
    user: string,
    elicitation: ClientCapabilities['elicitation'] = { url: {} },
  ) {
    const client = sdkClient({ elicitation });
    const completions: Completions = { next: deferred<string>() };
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return answer.current;
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, ({ params }) => {
      completions.next.resolve(params.elicitationId);
    });
    clients.push(client);
    return { client: await connectAs(client, t, user), completions };
  }

  const page = () => t.app.get(ConnectPage);
  const elicitations = () => t.app.get(McpUrlElicitations);

  it('ctx.elicitUrl sends a fresh id inside the url and returns it with the answer', async () => {
    const { client } = await connect('alice');
    const result = (await client.callTool({ name: 'connect_calendar' })) as CallToolResult;
    const params = asked[0].params as { elicitationId: string; url: string };
    expect(params).toEqual({
      mode: 'url',
      message: 'Connect your calendar',
      elicitationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: connectUrl(params.elicitationId),
    });
    expect(result.structuredContent).toEqual({
      action: 'accept',
      elicitationId: params.elicitationId,
    });
  });

  it('completes an accepted one for its own user only, telling its client once', async () => {
    const { client, completions } = await connect('alice');
    const conn = ((await client.callTool({ name: 'conn' })) as CallToolResult).content[0];
    await client.callTool({ name: 'connect_calendar' });
    const { elicitationId } = asked[0].params as { elicitationId: string };
    expect(elicitations().find(elicitationId)).toEqual({
      elicitationId,
      url: connectUrl(elicitationId),
      message: 'Connect your calendar',
      connId: (conn as { text: string }).text,
      principal: { subject: 'alice', scopes: [] },
    });
    // Someone else opening alice's link (phishing) is refused; nothing is sent.
    expect(page().finish(elicitationId, 'mallory')).toBe('forbidden');
    expect(page().finish(elicitationId, 'alice')).toBe('completed');
    expect(await completions.next.promise).toBe(elicitationId);
    // Completed means forgotten: a second completion sends nothing.
    expect(page().finish(elicitationId, 'alice')).toBe('unknown');
    expect(elicitations().complete(elicitationId)).toBe(false);
  });

  it.each(['decline', 'cancel'] as const)(
    'forgets a URL elicitation the user chose to %s',
    async (action) => {
      const { client } = await connect('alice');
      answer.current = { action };
      const result = (await client.callTool({ name: 'connect_calendar' })) as CallToolResult;
      const { elicitationId } = result.structuredContent as { elicitationId: string };
      expect(result.structuredContent).toEqual({ action, elicitationId });
      expect(elicitations().find(elicitationId)).toBeUndefined();
    },
  );

  it('answers -32042 with the elicitations; after completion the retry succeeds', async () => {
    const { client, completions } = await connect('bob');
    const elicitationId = calendarElicitationId('bob');
    const failure = await client.callTool({ name: 'calendar' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UrlElicitationRequiredError);
    expect((failure as UrlElicitationRequiredError).code).toBe(ErrorCode.UrlElicitationRequired);
    expect((failure as UrlElicitationRequiredError).elicitations).toEqual([
      {
        mode: 'url',
        elicitationId,
        url: connectUrl(elicitationId),
        message: 'Connect your calendar first',
      },
    ]);
    expect(asked).toEqual([]); // an error, not a request
    expect(page().finish(elicitationId, 'bob')).toBe('completed');
    expect(await completions.next.promise).toBe(elicitationId);
    const retry = (await client.callTool({ name: 'calendar' })) as CallToolResult;
    expect(retry.content).toEqual([{ type: 'text', text: 'three meetings today' }]);
  });

  it('never sends -32042 or a URL elicitation to a form-only client', async () => {
    const { client } = await connect('carol', { form: {} });
    const calendar = (await client.callTool({ name: 'calendar' })) as CallToolResult;
    expect(calendar).toEqual({
      content: [
        {
          type: 'text',
          text: 'This request needs the user to complete a URL-mode elicitation, which the client did not declare',
        },
      ],
      isError: true,
    });
    const link = (await client.callTool({ name: 'connect_calendar' })) as CallToolResult;
    expect(link).toEqual({
      content: [{ type: 'text', text: 'The client did not declare URL-mode elicitation' }],
      isError: true,
    });
    expect(asked).toEqual([]);
    expect(elicitations().find(calendarElicitationId('carol'))).toBeUndefined();
  });
});
