import { jest } from '@jest/globals';
import { findUrlElicitation } from '../elicitation/url-elicitation.ledger.js';
import type { ClientCapabilities, CreateMessageParams } from '../../core/protocol/mcp-types.js';
import { McpConnection } from '../connection/mcp-connection.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { elicitUrl, sampleClient } from './client-requests.js';

function requestWith(capabilities: ClientCapabilities, answer: unknown = {}) {
  const connection = new McpConnection('c');
  connection.capabilities = capabilities;
  const requestClient = jest.fn(async (_method: string, _params: object) => answer);
  const request = {
    id: 9,
    connection,
    era: 'legacy',
    clientCapabilities: capabilities,
    requestClient,
  } as unknown as McpRequest;
  return { request, requestClient };
}

const messages: CreateMessageParams['messages'] = [
  { role: 'user', content: { type: 'text', text: 'hi' } },
];

describe('sampleClient', () => {
  const tools = [{ name: 'search', inputSchema: { type: 'object' as const } }];

  it.each<[string, Partial<CreateMessageParams>]>([
    ['tools', { tools }],
    ['toolChoice', { toolChoice: { mode: 'none' } }],
  ])('refuses %s unless the client declared sampling.tools', async (_label, extra) => {
    const { request, requestClient } = requestWith({ sampling: { context: {} } });
    await expect(sampleClient(request, { messages, maxTokens: 5, ...extra })).rejects.toThrow(
      new McpToolError('The client did not declare tool use in sampling (sampling.tools)'),
    );
    expect(requestClient).not.toHaveBeenCalled();
  });

  it('sends tools to a client that declared sampling.tools', async () => {
    const { request, requestClient } = requestWith({ sampling: { tools: {} } }, { model: 'm' });
    await sampleClient(request, { messages, maxTokens: 5, tools });
    expect(requestClient).toHaveBeenCalledWith(
      'sampling/createMessage',
      { messages, maxTokens: 5, tools },
      undefined, // no input key: only the modern era names its questions
    );
  });

  it.each(['thisServer', 'allServers'] as const)(
    'refuses includeContext %s unless the client declared sampling.context',
    async (includeContext) => {
      const { request, requestClient } = requestWith({ sampling: { tools: {} } });
      await expect(
        sampleClient(request, { messages, maxTokens: 5, includeContext }),
      ).rejects.toThrow(/did not declare sampling\.context/);
      expect(requestClient).not.toHaveBeenCalled();
      const declared = requestWith({ sampling: { context: {} } });
      await sampleClient(declared.request, { messages, maxTokens: 5, includeContext });
      expect(declared.requestClient).toHaveBeenCalled();
    },
  );

  it("accepts includeContext 'none' from any sampling client", async () => {
    const { request, requestClient } = requestWith({ sampling: {} });
    await sampleClient(request, { messages, maxTokens: 5, includeContext: 'none' });
    expect(requestClient).toHaveBeenCalled();
  });
});

describe('elicitUrl', () => {
  it('builds the url from the fresh id and keeps an accepted elicitation open', async () => {
    const { request, requestClient } = requestWith(
      { elicitation: { url: {} } },
      { action: 'accept' },
    );
    const result = await elicitUrl(request, 'Go', (id) => `https://example.com/c?id=${id}`);
    const sent = requestClient.mock.calls[0][1] as { elicitationId: string; url: string };
    expect(sent.url).toBe(`https://example.com/c?id=${sent.elicitationId}`);
    expect(result).toEqual({ action: 'accept', elicitationId: sent.elicitationId });
    expect(findUrlElicitation([request.connection], sent.elicitationId)?.requestId).toBe(9);
  });

  it('forgets it when the request fails', async () => {
    const { request, requestClient } = requestWith({ elicitation: { url: {} } });
    requestClient.mockRejectedValueOnce(new Error('timed out'));
    await expect(elicitUrl(request, 'Go', 'https://example.com/c')).rejects.toThrow('timed out');
    const sent = requestClient.mock.calls[0][1] as { elicitationId: string };
    expect(findUrlElicitation([request.connection], sent.elicitationId)).toBeUndefined();
  });

  it.each(['javascript:alert(1)', 'not a url'])(
    'refuses the url %s before sending',
    async (url) => {
      const { request, requestClient } = requestWith({ elicitation: { url: {} } });
      await expect(elicitUrl(request, 'Go', url)).rejects.toThrow(TypeError);
      expect(requestClient).not.toHaveBeenCalled();
    },
  );
});
