import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { ROUTE_SCHEMA, COUNT_OUTPUT, DiscoveredTools, ContentFixtures } from './registry-app.js';
describe('registry', () => {
  let t: McpTestApp | undefined;

  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  describe('decorator discovery', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [DiscoveredTools, ContentFixtures]);
    });

    it('names an @McpTool after its method by default, or after its name option', async () => {
      const { tools } = await t!.result('tools/list');
      const names = tools.map((tool: any) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['method_named', 'explicit.name']));
      expect(names).not.toContain('somethingElse');
      expect(tools.find((tool: any) => tool.name === 'explicit.name')).toMatchObject({
        title: 'Explicit',
        description: 'Named explicitly',
      });
      expect(await t!.callTool('method_named', {})).toEqual({
        content: [{ type: 'text', text: 'by method' }],
      });
      expect(await t!.callTool('explicit.name', {})).toEqual({
        content: [{ type: 'text', text: 'by option' }],
      });
    });

    it('discovers @McpResource methods', async () => {
      const { resources } = await t!.result('resources/list');
      expect(resources).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            uri: 'mem://text',
            description: 'Some text',
            mimeType: 'text/plain',
          }),
          expect.objectContaining({ uri: 'mem://full', name: 'full-result' }),
        ]),
      );
      expect(resources).toHaveLength(4);
    });

    it('discovers @McpResourceTemplate methods and passes the matched variables to the handler', async () => {
      const { resourceTemplates } = await t!.result('resources/templates/list');
      expect(resourceTemplates).toEqual([
        expect.objectContaining({
          uriTemplate: 'notes://{folder}/{id}',
          description: 'A note in a folder',
          mimeType: 'application/json',
        }),
      ]);
      const read = await t!.result('resources/read', { uri: 'notes://work/42' });
      expect(read.contents).toHaveLength(1);
      expect(read.contents[0].uri).toBe('notes://work/42');
      expect(JSON.parse(read.contents[0].text)).toEqual({
        uri: 'notes://work/42',
        variables: { folder: 'work', id: '42' },
      });
    });

    it('discovers @McpPrompt methods with their arguments', async () => {
      const { prompts } = await t!.result('prompts/list');
      expect(prompts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            name: 'summarise',
            description: 'Summarise a topic',
            arguments: [
              { name: 'topic', description: 'What to summarise', required: true },
              { name: 'tone', required: false },
            ],
          }),
          expect.objectContaining({ name: 'full_prompt' }),
        ]),
      );
    });
  });

  describe('DTO input', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [DiscoveredTools]);
    });

    it('lists a JSON Schema derived from the class-validator DTO', async () => {
      const { tools } = await t!.result('tools/list');
      const schema = tools.find((tool: any) => tool.name === 'create_note').inputSchema;
      expect(schema.type).toBe('object');
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties).sort()).toEqual(['body', 'priority', 'title']);
      expect(schema.properties.title).toEqual(expect.objectContaining({ type: 'string' }));
      expect(schema.properties.priority).toEqual(expect.objectContaining({ type: 'integer' }));
      expect([...schema.required].sort()).toEqual(['priority', 'title']);
    });

    it('transforms valid arguments into a DTO instance', async () => {
      const result = await t!.callTool('create_note', { title: 'Groceries', priority: 2 });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ isDto: true, title: 'Groceries', priority: 2 });
    });

    it('answers invalid arguments with an isError result naming the property', async () => {
      const result = await t!.callTool('create_note', { title: 'Groceries', priority: 0 });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain('priority');
      expect(result.content[0].text).not.toContain('title');
    });

    it('refuses properties the DTO does not declare', async () => {
      const result = await t!.callTool('create_note', { title: 'x', priority: 1, owner: 'eve' });
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toContain('owner');
    });
  });

  describe('raw JSON Schema input and output schema', () => {
    beforeEach(async () => {
      t = await createMcpApp({}, [DiscoveredTools]);
    });

    it('lists a raw JSON Schema verbatim, including $schema, $defs and $ref', async () => {
      const { tools } = await t!.result('tools/list');
      const route = tools.find((tool: any) => tool.name === 'route');
      expect(route.inputSchema).toEqual(ROUTE_SCHEMA);
      expect(route.inputSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    });

    it('validates arguments against the raw schema, following $ref', async () => {
      expect(await t!.callTool('route', { from: { x: 0, y: 0 }, to: { x: 3, y: 4 } })).toEqual({
        content: [{ type: 'text', text: '5' }],
      });
      const wrong = await t!.callTool('route', { from: { x: 'zero', y: 0 }, to: { x: 3, y: 4 } });
      expect(wrong.isError).toBe(true);
    });

    it('lists the output schema and passes structuredContent that matches it', async () => {
      const { tools } = await t!.result('tools/list');
      expect(tools.find((tool: any) => tool.name === 'good_count').outputSchema).toEqual(
        COUNT_OUTPUT,
      );
      const result = await t!.callTool('good_count', {});
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ count: 3 });
    });

    it('answers structuredContent that fails the output schema with an isError result', async () => {
      const result = await t!.callTool('bad_count', {});
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
    });
  });
});
