import type { ArgumentsHost } from '@nestjs/common';
import { McpExecutionContext } from './mcp-execution-context.js';

class NotesTools {
  search() {}
}

const httpRequest = { headers: { authorization: 'Bearer t' } };
const principal = { subject: 'alice', scopes: [] };
const mcpContext = { connId: 'c1', principal, httpRequest };

describe('McpExecutionContext', () => {
  const context = new McpExecutionContext(
    [{ q: 'x' }, mcpContext],
    NotesTools,
    NotesTools.prototype.search,
  );

  it("is of type 'mcp' and exposes the handler's arguments, class and method", () => {
    expect(context.getType()).toBe('mcp');
    expect(context.getArgByIndex(0)).toEqual({ q: 'x' });
    expect(context.getClass()).toBe(NotesTools);
    expect(context.getHandler()).toBe(NotesTools.prototype.search);
  });

  it('finds the MCP context last, and the principal and HTTP request on it', () => {
    expect(context.getContext()).toBe(mcpContext);
    expect(context.getPrincipal()).toBe(principal);
    expect(context.getHttpRequest()).toBe(httpRequest);
    expect(context.switchToHttp().getRequest()).toBe(httpRequest);
    expect(context.switchToHttp().getResponse()).toBeUndefined();
    expect(context.switchToRpc().getData()).toEqual({ q: 'x' });
    expect(context.switchToRpc().getContext()).toBe(mcpContext);
  });

  it('puts the MCP context last for resources, too', () => {
    const resource = new McpExecutionContext(['notes://1', { id: '1' }, mcpContext]);
    expect(resource.getContext()).toBe(mcpContext);
    expect(resource.getPrincipal()).toBe(principal);
  });

  it('create() returns an MCP context as it is and views any other host as one', () => {
    expect(McpExecutionContext.create(context)).toBe(context);
    const host = {
      getArgs: () => [{ q: 'y' }, mcpContext],
      getType: () => 'mcp',
    } as unknown as ArgumentsHost;
    const viewed = McpExecutionContext.create(host);
    expect(viewed.getArgByIndex(0)).toEqual({ q: 'y' });
    expect(viewed.getPrincipal()).toBe(principal);
    expect(viewed.getType()).toBe('mcp');
  });
});
