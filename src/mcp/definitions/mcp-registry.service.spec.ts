import type { McpListKind } from './mcp-registry.service.js';
import { McpRegistry } from './mcp-registry.service.js';
import { McpDefinitionError } from './registry.errors.js';

const handler = () => 'ok';
const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };

describe('McpRegistry', () => {
  let registry: McpRegistry;
  let changes: McpListKind[];

  beforeEach(() => {
    registry = new McpRegistry();
    changes = [];
    registry.changes$.subscribe((kind) => changes.push(kind));
  });

  it('offers definitions, not entries: no entry-level add methods', () => {
    for (const method of ['addTool', 'addResource', 'addResourceTemplate', 'addPrompt']) {
      expect(method in registry).toBe(false);
    }
  });

  it('registers a tool from its definition, labelled by source in errors', () => {
    registry.registerTool({ name: 't', description: 'd', inputSchema: schema, handler }, 'A.t');
    expect(registry.tool('t')?.source).toBe('A.t');
    expect(() =>
      registry.registerTool({ name: 't', description: 'd', inputSchema: schema, handler }, 'B.t'),
    ).toThrow(new McpDefinitionError('tool', 'B.t', '"t" is already registered'));
    expect(changes).toEqual(['tools']);
  });

  it('unregisters a tool, announcing it once, and a second time finds nothing', () => {
    registry.registerTool({ name: 't', description: 'd', inputSchema: schema, handler });
    expect(registry.unregisterTool('t')).toBe(true);
    expect(registry.unregisterTool('t')).toBe(false);
    expect(registry.tool('t')).toBeUndefined();
    expect(changes).toEqual(['tools', 'tools']);
  });

  it('accepts a template definition with completions or the deprecated complete', () => {
    const ids = () => ['1'];
    registry.registerResourceTemplate({
      uriTemplate: 'a://{id}',
      name: 'a',
      completions: { id: ids },
      handler,
    });
    registry.registerResourceTemplate({
      uriTemplate: 'b://{id}',
      name: 'b',
      complete: { id: ids },
      handler,
    });
    expect(registry.template('a://{id}')?.completions).toEqual({ id: ids });
    expect(registry.template('b://{id}')?.completions).toEqual({ id: ids });
    expect(() =>
      registry.registerResourceTemplate({
        uriTemplate: 'c://{id}',
        name: 'c',
        completions: { id: ids },
        complete: {},
        handler,
      }),
    ).toThrow(/not both/);
  });
});
