import * as testing from '../../src/testing/index.js';

describe('mcp-warden/testing exports', () => {
  it('exports the client, its error, the app helper and the internals, and nothing else', () => {
    expect(Object.keys(testing).sort()).toEqual([
      'LegacySseSessions', // deprecated alias of SsePairSessions
      'MCP_OPTIONS',
      'McpHttpSessions',
      'McpTestClient',
      'McpTestClientError',
      'SsePairSessions',
      'createMcpTestingApp',
      'relatedRequestOf',
      'runPolicyCases',
    ]);
  });

  it('keeps LegacySseSessions as the same class as SsePairSessions', () => {
    expect(testing.LegacySseSessions).toBe(testing.SsePairSessions);
  });
});
