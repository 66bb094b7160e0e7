// The official SDK 2.x McpServer (@modelcontextprotocol/server) with the bench tools: `echo`, and
// `guarded_echo`, which asks the client through ctx.mcpReq.elicitInput (the 2025-11-25 push-style
// request) before echoing. elicitInput does not relate the request to the call by itself (it would
// go to the standalone GET stream), so the call's id is passed, as with SDK 1.x.
import { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { approvalRequest, approved } from './sdk1-app.mjs';

const input = z.object({ text: z.string() });

export function buildSdk2Server() {
  const server = new McpServer({ name: 'sdk2-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text', inputSchema: input },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'guarded_echo',
    { description: 'Echo the text, once a human approves', inputSchema: input },
    async ({ text }, ctx) => {
      const answer = await ctx.mcpReq.elicitInput(approvalRequest(text), {
        relatedRequestId: ctx.mcpReq.id,
      });
      return approved(answer)
        ? { content: [{ type: 'text', text }] }
        : { isError: true, content: [{ type: 'text', text: 'not approved' }] };
    },
  );
  return server;
}
