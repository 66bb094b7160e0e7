import type { IncomingMessage } from 'node:http';
import { McpConnection } from '../server/connection/mcp-connection.js';
import { operationAttributes, requestAttributes, spanNameOf } from './request-attributes.js';

const http = (headers: Record<string, string> = {}) =>
  ({
    headers,
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1', remotePort: 50_000 },
  }) as unknown as IncomingMessage;

describe('request attributes (MCP semantic conventions)', () => {
  it('names a span by method and tool or prompt, never by a resource URI', () => {
    expect(spanNameOf('tools/call', { name: 'find' })).toBe('tools/call find');
    expect(spanNameOf('prompts/get', { name: 'summary' })).toBe('prompts/get summary');
    expect(spanNameOf('resources/read', { uri: 'notes://1' })).toBe('resources/read');
    expect(spanNameOf('tools/call', { name: 42 })).toBe('tools/call');
    expect(spanNameOf('tools/call', undefined)).toBe('tools/call');
    expect(spanNameOf('tools/call', { name: 'n'.repeat(1_000) })).toBe(
      `tools/call ${'n'.repeat(256)}`,
    );
  });

  it('takes the version from a modern request, else from the connection, and digests the session id', () => {
    const connection = new McpConnection('c');
    connection.protocolVersion = '2025-06-18';
    const modern = requestAttributes(
      'r-1',
      'resources/read',
      { uri: 'notes://1', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      connection,
      { transport: 'http', httpRequest: http({ 'mcp-session-id': 'secret-session' }) },
    );
    expect(modern).toEqual({
      'mcp.method.name': 'resources/read',
      'jsonrpc.request.id': 'r-1',
      'mcp.resource.uri': 'notes://1',
      'mcp.protocol.version': '2026-07-28',
      'mcp.session.id': expect.stringMatching(/^[0-9a-f]{32}$/),
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'client.address': '127.0.0.1',
      'client.port': 50_000,
    });
    expect(JSON.stringify(modern)).not.toContain('secret-session');

    expect(
      operationAttributes('tools/call', { name: 'find' }, connection, { transport: 'stdio' }),
    ).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'find',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-06-18',
      'network.transport': 'pipe',
    });
  });

  it('puts nothing of an in-process caller on the network attributes', () => {
    const attributes = operationAttributes('ping', {}, new McpConnection('c'), {
      transport: 'unknown',
    });
    expect(attributes).toEqual({ 'mcp.method.name': 'ping' });
  });
});
