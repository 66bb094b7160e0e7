import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ADAPTERS, createHttpApp, type HttpTestApp } from '../support/http-app.js';
import {
  CONTACT_SCHEMA,
  GAPS_OPTIONS,
  GAPS_PROVIDERS,
  connectAs,
  sdkClient,
} from './spec-gaps-app.js';

/*
 * An accepted form elicitation is checked against the requestedSchema the
 * server sent (spec 2025-11-25: servers SHOULD validate the data): content
 * that fails it is a tool error, and the handler never sees it as the user's.
 */

describe.each(ADAPTERS)('accepted elicitation content on %s', (adapter) => {
  let t: HttpTestApp;
  let client: Client;
  const answer: { current: ElicitResult } = { current: { action: 'decline' } };
  const asked: ElicitRequest[] = [];

  beforeAll(async () => {
    t = await createHttpApp(GAPS_OPTIONS, GAPS_PROVIDERS, adapter);
    client = sdkClient({ elicitation: { form: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      return answer.current;
    });
    await connectAs(client, t, 'alice');
  });

  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  beforeEach(() => (asked.length = 0));

  const contact = async () =>
    (await client.callTool({ name: 'contact', arguments: {} })) as CallToolResult;

  it('sends the schema as given and hands valid content to the handler', async () => {
    answer.current = {
      action: 'accept',
      content: { name: 'Ada', email: 'ada@example.com', age: 36 },
    };
    const result = await contact();
    expect(asked[0].params).toEqual({
      message: 'Who should we write to?',
      requestedSchema: CONTACT_SCHEMA,
    });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({
      contact: { name: 'Ada', email: 'ada@example.com', age: 36 },
    });
  });

  it.each([
    ['a missing required field', { name: 'Ada' }, 'email is required'],
    [
      'a malformed email',
      { name: 'Ada', email: 'not-an-email' },
      'email must match format "email"',
    ],
    ['a number below the minimum', { name: 'Ada', email: 'a@b.co', age: 12 }, 'age must be >= 18'],
    ['a number where a string belongs', { name: 7, email: 'a@b.co' }, 'name must be string'],
    ['no content at all', undefined, 'name is required; email is required'],
  ])('turns an accept with %s into a tool error', async (_label, content, problem) => {
    answer.current = content === undefined ? { action: 'accept' } : { action: 'accept', content };
    const result = await contact();
    expect(asked).toHaveLength(1);
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: `The client's answer does not match the requested schema: ${problem}`,
        },
      ],
      isError: true,
    });
  });

  it.each(['decline', 'cancel'] as const)('passes a %s through unchecked', async (action) => {
    answer.current = { action, content: { junk: true } };
    const result = await contact();
    expect(result).toEqual({ content: [{ type: 'text', text: `no contact (${action})` }] });
  });
});
