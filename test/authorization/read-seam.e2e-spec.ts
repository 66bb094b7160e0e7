import { Authorizers, type Authorizer } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { recorder, ReadFixtures } from './authorization-app.js';

describe('authorization', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('read seam', () => {
    const cases: [string, object, Record<string, unknown>][] = [
      ['tools/list', {}, {}],
      ['resources/list', {}, {}],
      ['resources/templates/list', {}, {}],
      ['resources/read', { uri: 'notes://index' }, { uri: 'notes://index' }],
      ['resources/subscribe', { uri: 'notes://index' }, { uri: 'notes://index' }],
      ['resources/unsubscribe', { uri: 'notes://index' }, { uri: 'notes://index' }],
      ['prompts/list', {}, {}],
      [
        'prompts/get',
        { name: 'summarise', arguments: { topic: 'otters' } },
        { name: 'summarise', arguments: { topic: 'otters' } },
      ],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'summarise' }, argument: { name: 'topic', value: 'o' } },
        { ref: { type: 'ref/prompt', name: 'summarise' } },
      ],
    ];

    it.each(cases)(
      'gives the read authorizer %s and its documented args',
      async (method, params, args) => {
        const { authorizer, calls } = recorder();
        t = await createMcpApp({ readAuthorizer: authorizer, transport: 'stdio' }, [ReadFixtures]);
        const response = await t.request(method, params, 'reader');
        expect(response.error).toBeUndefined();
        const context = { connId: 'reader', transport: 'stdio', era: 'legacy', purpose: 'call' };
        // Completion also asks whether the caller may see what its ref names (prompts/get here).
        const visibility =
          method === 'completion/complete'
            ? [
                {
                  name: 'prompts/get',
                  args: { name: 'summarise', arguments: {} },
                  context: { ...context, purpose: 'visibility' },
                },
              ]
            : [];
        expect(calls).toEqual([{ name: method, args, context }, ...visibility]);
      },
    );

    it.each(cases.map(([method, params]) => [method, params] as const))(
      'answers a denied %s with -31403 and the authorization_required data',
      async (method, params) => {
        t = await createMcpApp({ readAuthorizer: Authorizers.denyAll('no reads here') }, [
          ReadFixtures,
        ]);
        const response = await t.request(method, params);
        expect(response.result).toBeUndefined();
        expect(response.error).toEqual({
          code: -31403,
          message: `authorization_required: ${method}`,
          data: { error: 'authorization_required', method, detail: 'no reads here' },
        });
      },
    );

    it.each(cases.map(([method, params]) => [method, params] as const))(
      "denies an ask on %s with 'interactive_approval_unsupported' and never shows the prompt",
      async (method, params) => {
        const readAuthorizer: Authorizer = () => ({
          kind: 'ask',
          prompt: 'PROMPT-TEXT-Let the agent read?',
        });
        t = await createMcpApp({ readAuthorizer }, [ReadFixtures]);
        const response = await t.request(method, params);
        expect(response.error).toEqual({
          code: -31403,
          message: `authorization_required: ${method}`,
          data: {
            error: 'authorization_required',
            method,
            detail: 'interactive_approval_unsupported',
          },
        });
        expect(JSON.stringify(response)).not.toContain('PROMPT-TEXT');
      },
    );

    it('never denies reads because of a tool allowlist on the tool seam', async () => {
      t = await createMcpApp({ authorizer: Authorizers.allowlist(['nothing_here']) }, [
        ReadFixtures,
      ]);
      for (const [method, params] of cases) {
        const response = await t.request(method, params);
        expect({ method, error: response.error }).toEqual({ method, error: undefined });
      }
    });
  });
});
