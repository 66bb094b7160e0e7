import { Injectable } from '@nestjs/common';
import { McpTool, McpToolError, type McpToolContext } from '../../src/index.js';

/** What a handler can do with its `ctx`: progress, logs, cancellation, and asking the client. */
@Injectable()
export class ReportTools {
  @McpTool({
    description: 'Build a report, asking the user which format they want.',
    inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
  })
  async build({ topic }: { topic: string }, ctx: McpToolContext) {
    ctx.log('debug', { topic, caller: ctx.principal?.subject, via: ctx.transport });
    ctx.progress(0, 3, 'asking for a format'); // sent only if the request had a progressToken

    // Form-mode elicitation on the caller's connection (the client must declare `elicitation`).
    const answer = await ctx.elicit('Which format?', {
      type: 'object',
      properties: { format: { type: 'string', enum: ['short', 'long'] } },
      required: ['format'],
    });
    if (answer.action !== 'accept') return 'No report, then.';

    // Sampling: the client's model writes the text (the client must declare `sampling`).
    ctx.progress(1, 3, 'drafting');
    const draft = await ctx.sample({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `A ${answer.content?.format} report on ${topic}` },
        },
      ],
      maxTokens: 200,
    });
    if (ctx.signal.aborted) throw new McpToolError('cancelled');
    ctx.progress(3, 3);
    return draft.content.type === 'text' ? draft.content.text : '';
  }
}
