import * as api from './index.js';
import { McpWarden } from './mcp/engine/mcp-warden.service.js';
import { McpWardenError } from './mcp/core/errors/mcp-warden.error.js';

/*
 * The application API, pinned: adding or removing an export is a decision,
 * made here on purpose (external integration suites import these names).
 */
const PUBLIC_VALUES = [
  'APPROVAL_PENDING_META',
  'Authorizers',
  'DEFAULT_CONN_ID',
  'DEFAULT_LIMITS',
  'InjectMcpRegistry',
  'InjectMcpWarden',
  'getMcpRegistryToken',
  'getMcpWardenToken',
  'JsonRpcErrorCode',
  'LATEST_PROTOCOL_VERSION',
  'MCP_CONTEXT_TYPE',
  'MCP_MODULE_OPTIONS',
  'MCP_NONCE_STORE',
  'MCP_TASK_STORE',
  'MemoryTaskStore',
  'MCP_APPROVAL_STORE',
  'MCP_OPERATOR_DESK',
  'argumentPreview',
  'auditEventJson',
  'MODERN_PROTOCOL_VERSION',
  'SUPPORTED_MODERN_PROTOCOL_VERSIONS',
  'McpHeaderMismatchError',
  'McpInputRequiredError',
  'McpMissingClientCapabilityError',
  'McpUnsupportedProtocolVersionError',
  'McpAuditSinks',
  'McpCheckpointPublishers',
  'McpClientEvents',
  'McpExecutionContext',
  'McpHttpAuth',
  'McpDefinitionError',
  'McpError',
  'McpInvalidParamsError',
  'McpInvalidRequestError',
  'McpMethodNotFoundError',
  'McpModule',
  'McpPolicies',
  'McpPolicy',
  'McpPolicyError',
  'McpPrompt',
  'McpReadDeniedError',
  'McpRegistry',
  'McpResource',
  'McpResourceNotFoundError',
  'McpResourceTemplate',
  'McpServer',
  'McpStdioTransport',
  'McpTokenExchangeError',
  'McpTooManyRequestsError',
  'McpTool',
  'McpToolError',
  'McpUnguardedSensitiveToolsError',
  'McpUrlElicitationRequiredError',
  'McpUrlElicitations',
  'McpWarden',
  'McpWardenError',
  'SUPPORTED_PROTOCOL_VERSIONS',
  'StderrLogger',
  'principalFromEnv',
  'samePrincipal',
  'serveStdio',
  'verifyWebhookSignature',
];

describe('the public API', () => {
  it('exports exactly the pinned names', () => {
    expect(Object.keys(api).sort()).toEqual([...PUBLIC_VALUES].sort());
  });

  it('keeps the first release names as aliases of the same classes', () => {
    expect(api.McpServer).toBe(McpWarden);
    expect(api.McpError).toBe(McpWardenError);
    expect(new api.McpInvalidParamsError('x')).toBeInstanceOf(api.McpError);
  });

  it('leaves internals out: seam guards, test-only session tables, entry-level registry methods', () => {
    const names = Object.keys(api);
    for (const internal of [
      'ToolSeamGuard',
      'ReadSeamGuard',
      'McpHttpSessions',
      'relatedRequestOf',
    ]) {
      expect(names).not.toContain(internal);
    }
    expect(Object.getOwnPropertyNames(api.McpRegistry.prototype)).not.toContain('addTool');
  });
});
