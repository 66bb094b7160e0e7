import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { MCP_OPTIONS } from '../core/options/options.constants.js';
import { McpWarden } from '../engine/mcp-warden.service.js';
import { McpRegistry } from '../definitions/mcp-registry.service.js';
import { McpPolicy } from '../policy/mcp-policy.service.js';
import { McpClientEvents } from '../engine/client-events/mcp-client-events.service.js';
import { McpUrlElicitations } from '../engine/elicitation/mcp-url-elicitations.service.js';
import { MCP_OPERATOR_DESK } from '../approvals/operator/operator-desk.interface.js';
import { MCP_APPROVAL_STORE } from '../approvals/stores/approval-store.interface.js';
import { McpHttpGate } from '../transports/http/security/http-gate.service.js';
import { McpHttpSessions } from '../transports/http/session/http-sessions.service.js';
import { SsePairSessions } from '../transports/http/sse-2024-11-05/sse-pair.sessions.service.js';
import { namedServerToken, serverTokenOf } from '../core/servers/server-tokens.js';

/** What every server module exports: under these class tokens, and under its name's own. */
export const PER_SERVER_EXPORTS = [
  MCP_MODULE_OPTIONS,
  MCP_OPTIONS,
  McpWarden,
  McpRegistry,
  McpPolicy,
  McpClientEvents,
  McpUrlElicitations,
  MCP_OPERATOR_DESK,
  MCP_APPROVAL_STORE,
];

/** What an HTTP server module exports besides. */
export const PER_HTTP_SERVER_EXPORTS = [McpHttpSessions, SsePairSessions, McpHttpGate];

/*
 * The names the classes' named tokens are made of, written out: a bundler that minifies
 * class names must not change a token (getMcpWardenToken and McpHttpAuth spell theirs so).
 */
const CLASS_KINDS = new Map<unknown, string>([
  [McpWarden, 'McpWarden'],
  [McpRegistry, 'McpRegistry'],
  [McpPolicy, 'McpPolicy'],
  [McpClientEvents, 'McpClientEvents'],
  [McpUrlElicitations, 'McpUrlElicitations'],
  [McpHttpSessions, 'McpHttpSessions'],
  [SsePairSessions, 'SsePairSessions'],
  [McpHttpGate, 'McpHttpGate'],
]);

/** The token under which the server `name` exports `token`. */
export function namedExportOf(token: string | symbol | object, name: string): string {
  const kind = CLASS_KINDS.get(token);
  return kind ? namedServerToken(kind, name) : serverTokenOf(token as string | symbol, name);
}
