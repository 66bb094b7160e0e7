import { McpDefinitionError } from './registry.errors.js';
import {
  createPromptEntry,
  createResourceTemplateEntry,
  createToolEntry,
} from './registry-entry.factory.js';

const handler = () => 'ok';

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
