import { Injectable } from '@nestjs/common';
import { McpTool } from '../src/index.js';
import { createMcpApp } from './support/mcp-test-app.js';

@Injectable()
class EchoTools {
  @McpTool({ description: 'Echo', input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } })
  echo({ text }: { text: string }) {
    return `echo: ${text}`;
  }
}

describe('smoke', () => {
  it('lists and calls', async () => {
    const t = await createMcpApp({}, [EchoTools]);
    const init = await t.initialize();
    expect(init.protocolVersion).toBe('2025-11-25');
    const list = await t.result('tools/list');
    expect(list.tools.map((x: any) => x.name)).toEqual(['echo']);
    expect(await t.callTool('echo', { text: 'hi' })).toEqual({ content: [{ type: 'text', text: 'echo: hi' }] });
    await t.close();
  });
});
