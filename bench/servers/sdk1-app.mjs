// The official SDK 1.x McpServer with the bench tools: `echo`, and `guarded_echo`, which asks the
// client (elicitation/create, related to the call so it rides the call's stream) before echoing.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

export const approvalRequest = (text) => ({
  message: `Echo ${text}?`,
  requestedSchema: {
    type: 'object',
    properties: { approve: { type: 'boolean', description: 'Approve running guarded_echo' } },
    required: ['approve'],
  },
});

export const approved = (answer) => answer.action === 'accept' && answer.content?.approve === true;

export function buildSdk1Server() {
  const server = new McpServer({ name: 'sdk1-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'guarded_echo',
    { description: 'Echo the text, once a human approves', inputSchema: { text: z.string() } },
    async ({ text }, extra) => {
      const answer = await server.server.elicitInput(approvalRequest(text), {
        relatedRequestId: extra.requestId,
      });
      return approved(answer)
        ? { content: [{ type: 'text', text }] }
        : { isError: true, content: [{ type: 'text', text: 'not approved' }] };
    },
  );
  return server;
}
