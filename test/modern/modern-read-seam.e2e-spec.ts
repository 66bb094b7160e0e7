import { Authorizers, type Authorizer } from '../../src/index.js';
import { HTTP_VARIANTS, type HttpTestApp } from '../support/http-app.js';
import { SseReader } from '../support/http-sse.js';
import { recorder } from '../authorization/authorization-app.js';
import {
  bootModernApp,
  modernMessage,
  postModern,
  README_URI,
  resetFixture,
} from './modern-app.js';

/*
 * The read seam in the 2026-07-28 era, over Streamable HTTP: every modern read and metadata
 * method, subscriptions/listen among them, is put to the read authorizer with what identifies
 * the read; a deny is -31403 with its reason, and an ask is denied as
 * interactive_approval_unsupported without its prompt anywhere in the answer (the read seam
 * has no approval round, in either era).
 */

const PROMPT = 'PROMPT-TEXT-Let the agent read?';

const CASES: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['tools/list', {}, {}],
  ['resources/list', {}, {}],
  ['resources/templates/list', {}, {}],
  ['resources/read', { uri: README_URI }, { uri: README_URI }],
  ['prompts/list', {}, {}],
  [
    'prompts/get',
    { name: 'summary', arguments: { topic: 'otters' } },
    { name: 'summary', arguments: { topic: 'otters' } },
  ],
  [
    'completion/complete',
    { ref: { type: 'ref/prompt', name: 'summary' }, argument: { name: 'topic', value: 'al' } },
    { ref: { type: 'ref/prompt', name: 'summary' } },
  ],
  [
    'subscriptions/listen',
    { notifications: { toolsListChanged: true } },
    { notifications: { toolsListChanged: true } },
  ],
];

/** The one JSON-RPC answer to a modern POST, as JSON or as the first message of its stream. */
async function answerOf(response: Response): Promise<{ text: string; message: any }> {
  const type = response.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) {
    const reader = new SseReader(response);
    const message = await reader.waitForMessage((m) => 'result' in m || 'error' in m);
    await reader.ended;
    return { text: JSON.stringify(reader.events), message };
  }
  const text = await response.text();
  return { text, message: JSON.parse(text) };
}

describe.each(HTTP_VARIANTS)('the read seam in the 2026-07-28 era (%s)', (variant) => {
  let t: HttpTestApp;
  // One app per variant; each test sets the decision its read authorizer delegates to.
  let decide: Authorizer = Authorizers.denyAll('unset');
  beforeAll(async () => {
    t = await bootModernApp(variant, { readAuthorizer: (...call) => decide(...call) });
  });
  afterAll(() => t.close());
  beforeEach(() => resetFixture());

  async function send(readAuthorizer: Authorizer, method: string, params: object) {
    decide = readAuthorizer;
    const response = await postModern(t, modernMessage(1, method, { ...params }));
    return { status: response.status, ...(await answerOf(response)) };
  }

  it.each(CASES)(
    'gives the read authorizer %s and what identifies it',
    async (method, params, args) => {
      const { authorizer, calls } = recorder(Authorizers.denyAll('recorded'));
      await send(authorizer, method, params);
      expect(calls[0]).toMatchObject({ name: method, args, context: { transport: 'http' } });
    },
  );

  it.each(CASES)('answers a denied %s with -31403 and the reason', async (method, params) => {
    const { message } = await send(Authorizers.denyAll('no reads here'), method, params);
    expect(message.result).toBeUndefined();
    expect(message.error).toMatchObject({
      code: -31403,
      message: `authorization_required: ${method}`,
      data: { error: 'authorization_required', method, detail: 'no reads here' },
    });
  });

  it.each(CASES)(
    "denies an ask on %s as 'interactive_approval_unsupported', the prompt nowhere in the answer",
    async (method, params) => {
      const { text, message } = await send(() => ({ kind: 'ask', prompt: PROMPT }), method, params);
      expect(message.result).toBeUndefined();
      expect(message.error).toMatchObject({
        code: -31403,
        message: `authorization_required: ${method}`,
        data: {
          error: 'authorization_required',
          method,
          detail: 'interactive_approval_unsupported',
        },
      });
      expect(text).not.toContain('PROMPT-TEXT');
    },
  );
});
