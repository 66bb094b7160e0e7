import { normalizeToolResult, toolErrorResult } from './tool-result.normalizer.js';

describe('normalizeToolResult', () => {
  it('sends a string as one text block', () => {
    expect(normalizeToolResult('hi')).toEqual({ content: [{ type: 'text', text: 'hi' }] });
  });

  it('sends an array as the content', () => {
    const content = [{ type: 'text', text: 'a' }];
    expect(normalizeToolResult(content)).toEqual({ content });
  });

  it('keeps a full CallToolResult', () => {
    const result = { content: [], isError: true };
    expect(normalizeToolResult(result)).toBe(result);
  });

  it('sends a plain object as structuredContent plus its JSON text', () => {
    expect(normalizeToolResult({ a: 1 })).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    });
  });

  it('sends nothing as empty content and scalars as text', () => {
    expect(normalizeToolResult(undefined)).toEqual({ content: [] });
    expect(normalizeToolResult(42)).toEqual({ content: [{ type: 'text', text: '42' }] });
  });

  it('builds error results', () => {
    expect(toolErrorResult('bad')).toEqual({
      content: [{ type: 'text', text: 'bad' }],
      isError: true,
    });
  });
});
