import { Injectable } from '@nestjs/common';
import { McpTool, type McpToolContext } from '../../src/index.js';

/** The modern-era request envelope (`_meta`) a 2026-07-28 client sends. */
export function envelope(capabilities: object = {}, extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...extra,
  };
}

export const ELICIT = { elicitation: {} };

@Injectable()
export class ModernTools {
  @McpTool({
    description: 'Echo text',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return `echo: ${text}`;
  }

  @McpTool({ description: 'Deletes everything', input: { type: 'object' } })
  purge() {
    return 'purged';
  }

  @McpTool({ description: 'Asks the user for a name', input: { type: 'object' } })
  async greet(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicit('Your name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    if (answer.action !== 'accept') return `no name (${answer.action})`;
    return `hello ${String(answer.content?.name)}`;
  }

  @McpTool({ description: 'Logs at every level', input: { type: 'object' } })
  chatty(_args: object, ctx: McpToolContext) {
    ctx.log('debug', 'a debug line');
    ctx.log('error', 'an error line');
    return 'done';
  }
}
