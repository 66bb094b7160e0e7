import type { IncomingMessage } from 'node:http';
import { McpConnection } from '../engine/connection/mcp-connection.js';
import type { McpRegisteredNames } from './registered-names.js';
import { operationAttributes, requestAttributes, spanNameOf } from './request-attributes.js';

/** A server serving the methods below, with the tool `find` and the prompt `summary`. */
const known: McpRegisteredNames = {
  method: (name) =>
    ['initialize', 'ping', 'tools/call', 'prompts/get', 'resources/read'].includes(name),
  tool: (name) => name === 'find',
  prompt: (name) => name === 'summary',
};

const http = (headers: Record<string, string> = {}) =>
  ({
    headers,
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1', remotePort: 50_000 },
  }) as unknown as IncomingMessage;

describe('request attributes (MCP semantic conventions)', () => {
  it('names a span by method and tool or prompt, never by a resource URI', () => {
    expect(spanNameOf('tools/call', { name: 'find' }, known)).toBe('tools/call find');
    expect(spanNameOf('prompts/get', { name: 'summary' }, known)).toBe('prompts/get summary');
    expect(spanNameOf('resources/read', { uri: 'notes://1' }, known)).toBe('resources/read');
    expect(spanNameOf('tools/call', { name: 42 }, known)).toBe('tools/call');
    expect(spanNameOf('tools/call', undefined, known)).toBe('tools/call');
  });

  it('labels a name the server does not have as one value: _unknown, or _OTHER for a method', () => {
    expect(spanNameOf('tools/call', { name: 'n'.repeat(1_000) }, known)).toBe(
      'tools/call _unknown',
    );
    expect(spanNameOf('prompts/get', { name: 'find' }, known)).toBe('prompts/get _unknown');
    expect(spanNameOf('made/up-42', {}, known)).toBe('_OTHER');
    const connection = new McpConnection('c');
    const stdio = { transport: 'stdio' } as const;
    expect(
      operationAttributes('tools/call', { name: 'invented-7' }, connection, stdio, known),
    ).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': '_unknown',
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'pipe',
    });
    const version = { _meta: { 'io.modelcontextprotocol/protocolVersion': '1999-01-01' } };
    expect(operationAttributes('ping', version, connection, stdio, known)).toEqual({
      'mcp.method.name': 'ping',
      'mcp.protocol.version': '_OTHER',
      'network.transport': 'pipe',
    });
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
      known,
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
      operationAttributes(
        'tools/call',
        { name: 'find' },
        connection,
        { transport: 'stdio' },
        known,
      ),
    ).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'find',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-06-18',
      'network.transport': 'pipe',
    });
  });

  it('puts nothing of an in-process caller on the network attributes', () => {
    const attributes = operationAttributes(
      'ping',
      {},
      new McpConnection('c'),
      { transport: 'unknown' },
      known,
    );
    expect(attributes).toEqual({ 'mcp.method.name': 'ping' });
  });
});
