import { McpDefinitionError } from './registry.errors.js';
import {
  createPromptEntry,
  createResourceEntry,
  createResourceTemplateEntry,
  createToolEntry,
} from './registry-entry.factory.js';

const handler = () => 'ok';
const icons = [{ src: 'https://example.com/i.png', sizes: ['48x48'] }];
const _meta = { 'com.example/owner': 'team-a' };

describe('display fields on every kind of definition', () => {
  it('lists title, icons and _meta on tools, resources, templates and prompts', () => {
    const display = { title: 'T', icons, _meta };
    const tool = createToolEntry(
      { name: 't', description: 'd', inputSchema: { type: 'object' }, handler, ...display },
      'A.t',
    ).tool;
    const resource = createResourceEntry({ uri: 'x://r', name: 'r', handler, ...display }, 'A.r');
    const template = createResourceTemplateEntry(
      { uriTemplate: 'x://{id}', name: 'x', handler, ...display },
      'A.x',
    );
    const prompt = createPromptEntry({ name: 'p', description: 'd', handler, ...display }, 'A.p');
    for (const listed of [tool, resource.resource, template.template, prompt.prompt]) {
      expect(listed).toMatchObject(display);
    }
  });

  it('lists annotations and size on a resource, annotations alone on a template', () => {
    const annotations = { audience: ['user' as const], priority: 1 };
    const resource = createResourceEntry(
      { uri: 'x://r', name: 'r', handler, annotations, size: 12 },
      'A.r',
    );
    expect(resource.resource).toEqual({ uri: 'x://r', name: 'r', annotations, size: 12 });
    const template = createResourceTemplateEntry(
      { uriTemplate: 'x://{id}', name: 'x', handler, annotations, size: 12 } as never,
      'A.x',
    );
    expect(template.template).toEqual({ uriTemplate: 'x://{id}', name: 'x', annotations });
  });

  it('names the definition whose display field is bad', () => {
    expect(() =>
      createPromptEntry(
        { name: 'p', description: 'd', handler, icons: [{ src: 'javascript:x' }] },
        'Prompts.p',
      ),
    ).toThrow(/Invalid MCP prompt at Prompts\.p: icons\[0\]\.src/);
    expect(() =>
      createResourceTemplateEntry(
        { uriTemplate: 'x://{id}', name: 'x', handler, annotations: { priority: 5 } },
        'Res.x',
      ),
    ).toThrow(/Invalid MCP resource template at Res\.x: annotations\.priority/);
  });
});

describe('createToolEntry', () => {
  it.each([
    ['bad name', 'bad name'],
    ['', ''],
    ['x'.repeat(129), 'x'.repeat(129)],
  ])('rejects the name %p', (_label, name) => {
    expect(() =>
      createToolEntry({ name, description: 'd', inputSchema: { type: 'object' }, handler }, 'A.b'),
    ).toThrow(McpDefinitionError);
  });

  it('names the source in its message', () => {
    expect(() =>
      createToolEntry(
        { name: 't', description: ' ', inputSchema: { type: 'object' }, handler },
        'Tools.run',
      ),
    ).toThrow(/Tools\.run.*description/);
  });

  it('refuses a non-object input schema and an invalid JSON Schema', () => {
    expect(() =>
      createToolEntry(
        { name: 't', description: 'd', inputSchema: { type: 'string' }, handler },
        'A.b',
      ),
    ).toThrow(/type "object"/);
    expect(() =>
      createToolEntry(
        { name: 't', description: 'd', inputSchema: { type: 'object', properties: 3 }, handler },
        'A.b',
      ),
    ).toThrow(/invalid JSON Schema/);
  });

  it.each([
    [{ destructiveHint: true }, undefined, true],
    [{ destructiveHint: true, readOnlyHint: true }, false, true],
    [{ destructiveHint: false }, true, true],
    [{ readOnlyHint: true }, undefined, false],
    [undefined, undefined, false],
  ])('annotations %p with sensitive %p → sensitive %p', (annotations, sensitive, expected) => {
    const entry = createToolEntry(
      {
        name: 't',
        description: 'd',
        inputSchema: { type: 'object' },
        annotations,
        sensitive,
        handler,
      },
      'A.b',
    );
    expect(entry.sensitive).toBe(expected);
  });

  it('defaults the input to an empty closed object', async () => {
    const entry = createToolEntry(
      { name: 't', description: 'd', inputSchema: undefined as never, handler },
      'A.b',
    );
    expect(entry.tool.inputSchema).toEqual({ type: 'object', additionalProperties: false });
    expect((await entry.input.validate({ extra: 1 })).ok).toBe(false);
  });
});

describe('createResourceTemplateEntry', () => {
  it('refuses a completer for a variable the template lacks', () => {
    expect(() =>
      createResourceTemplateEntry(
        { uriTemplate: 'x://{id}', name: 'x', handler, complete: { other: () => [] } },
        'A.b',
      ),
    ).toThrow(/unknown variable other/);
  });
});

describe('createPromptEntry', () => {
  it('refuses duplicate argument names', () => {
    expect(() =>
      createPromptEntry(
        { name: 'p', description: 'd', arguments: [{ name: 'a' }, { name: 'a' }], handler },
        'A.b',
      ),
    ).toThrow(McpDefinitionError);
  });
});
