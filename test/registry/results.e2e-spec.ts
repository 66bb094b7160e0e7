import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { ReturnShapeTools, ContentFixtures } from './registry-app.js';
describe('registry', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('tool return shapes', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [ReturnShapeTools]);
    });

    it('sends a string as one text block', async () => {
      expect(await t!.callTool('as_string', {})).toEqual({
        content: [{ type: 'text', text: 'plain text' }],
      });
    });

    it('sends a content array as the content', async () => {
      expect(await t!.callTool('as_content', {})).toEqual({
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      });
    });

    it('sends a full CallToolResult as is', async () => {
      expect(await t!.callTool('as_result', {})).toEqual({
        content: [{ type: 'text', text: 'full' }],
        structuredContent: { full: true },
        isError: false,
      });
    });

    it('sends a plain object as structuredContent plus its JSON text', async () => {
      const result = await t!.callTool('as_object', {});
      expect(result.structuredContent).toEqual({ answer: 42, tags: ['a', 'b'] });
      expect(result.content).toHaveLength(1);
      expect(result.content[0].type).toBe('text');
      expect(JSON.parse(result.content[0].text)).toEqual({ answer: 42, tags: ['a', 'b'] });
      expect(result.isError).toBeFalsy();
    });
  });

  describe('resource and prompt results', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [ContentFixtures]);
    });

    it('sends a string resource as text', async () => {
      expect(await t!.result('resources/read', { uri: 'mem://text' })).toEqual({
        contents: [{ uri: 'mem://text', mimeType: 'text/plain', text: 'hello resource' }],
      });
    });

    it('sends a Uint8Array resource as a base64 blob', async () => {
      expect(await t!.result('resources/read', { uri: 'mem://bytes' })).toEqual({
        contents: [
          {
            uri: 'mem://bytes',
            mimeType: 'application/octet-stream',
            blob: Buffer.from([1, 2, 3, 250]).toString('base64'),
          },
        ],
      });
    });

    it('sends a Buffer resource as a base64 blob', async () => {
      const read = await t!.result('resources/read', { uri: 'mem://buffer' });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0]).toMatchObject({ uri: 'mem://buffer', blob: 'YnVm' });
      expect(read.contents[0].text).toBeUndefined();
    });

    it('sends a full ReadResourceResult as is', async () => {
      expect(await t!.result('resources/read', { uri: 'mem://full' })).toEqual({
        contents: [
          { uri: 'mem://full', mimeType: 'application/json', text: '{"a":1}' },
          { uri: 'mem://full#2', text: 'second part' },
        ],
      });
    });

    it('answers an unknown resource with -32002', async () => {
      const response = await t!.request('resources/read', { uri: 'mem://missing' });
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32002);
    });

    it('sends a prompt returning a messages array as the messages of the result', async () => {
      const result = await t!.result('prompts/get', {
        name: 'summarise',
        arguments: { topic: 'otters', tone: 'dry' },
      });
      expect(result.messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Summarise otters (dry)' } },
      ]);
    });

    it('sends a prompt returning a full GetPromptResult as is', async () => {
      expect(await t!.result('prompts/get', { name: 'full_prompt' })).toEqual({
        description: 'custom description',
        messages: [{ role: 'assistant', content: { type: 'text', text: 'ready' } }],
      });
    });

    it('answers a missing required prompt argument with -32602', async () => {
      const response = await t!.request('prompts/get', {
        name: 'summarise',
        arguments: { tone: 'dry' },
      });
      expect(response.result).toBeUndefined();
      expect(response.error.code).toBe(-32602);
    });
  });
});
