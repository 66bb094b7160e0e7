import { Reflector } from '@nestjs/core';
import { McpResourceTemplate } from './decorators/mcp-resource-template.decorator.js';
import { McpTool } from './decorators/mcp-tool.decorator.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { McpDefinitionError } from './registry.errors.js';

const INPUT = { type: 'object', properties: { q: { type: 'string' } } };
const OUTPUT = { type: 'object', properties: { n: { type: 'number' } } };
const ids = () => ['a'];

class Tools {
  @McpTool({ description: 'current names', inputSchema: INPUT, outputSchema: OUTPUT })
  current() {}

  @McpTool({ description: 'deprecated names', input: INPUT, output: OUTPUT })
  deprecated() {}

  @McpTool({ description: 'both, differing', inputSchema: INPUT, input: OUTPUT })
  conflicting() {}

  @McpTool({ description: 'no schemas' })
  bare() {}

  @McpResourceTemplate({ uriTemplate: 'x://{id}', completions: { id: ids } })
  currentTemplate() {}

  @McpResourceTemplate({ uriTemplate: 'x://{id}', complete: { id: ids } })
  deprecatedTemplate() {}

  @McpResourceTemplate({ uriTemplate: 'x://{id}', complete: { id: ids }, completions: {} })
  conflictingTemplate() {}
}

const accessor = new McpMetadataAccessor(new Reflector());
const proto = Tools.prototype;

describe('McpMetadataAccessor option names', () => {
  it.each([
    ['inputSchema/outputSchema', proto.current],
    ['the deprecated input/output', proto.deprecated],
  ])('reads a tool declared with %s under the current names', (_label, method) => {
    const tool = accessor.getTool(method)!;
    expect(tool.inputSchema).toBe(INPUT);
    expect(tool.outputSchema).toBe(OUTPUT);
    expect(tool).not.toHaveProperty('input');
    expect(tool).not.toHaveProperty('output');
  });

  it('adds no schema keys for a tool that declares none', () => {
    expect(accessor.getTool(proto.bare)).toEqual({ description: 'no schemas' });
  });

  it('refuses a tool that sets a name and its deprecated alias to different values', () => {
    expect(() => accessor.getTool(proto.conflicting)).toThrow(McpDefinitionError);
    expect(() => accessor.getTool(proto.conflicting)).toThrow(/inputSchema or .* input, not both/);
  });

  it.each([
    ['completions', proto.currentTemplate],
    ['the deprecated complete', proto.deprecatedTemplate],
  ])('reads a template declared with %s as completions', (_label, method) => {
    const template = accessor.getResourceTemplate(method)!;
    expect(template.completions).toEqual({ id: ids });
    expect(template).not.toHaveProperty('complete');
  });

  it('refuses a template that sets both completions and complete', () => {
    expect(() => accessor.getResourceTemplate(proto.conflictingTemplate)).toThrow(
      /completions or its deprecated alias complete, not both/,
    );
  });

  it('answers undefined for a method without the decorator', () => {
    expect(accessor.getTool(proto.currentTemplate)).toBeUndefined();
    expect(accessor.getResourceTemplate(proto.current)).toBeUndefined();
  });
});
