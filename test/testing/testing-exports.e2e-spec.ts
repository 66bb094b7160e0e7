import * as testing from '../../src/testing/index.js';

describe('mcp-warden/testing exports', () => {
  it('exports the client, its error, the app helper and the internals, and nothing else', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'LegacySseSessions',
      'MCP_OPTIONS',
      'McpHttpSessions',
      'McpTestClient',
      'McpTestClientError',
      'createMcpTestingApp',
      'relatedRequestOf',
    ]);
  });
});
