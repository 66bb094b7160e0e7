import type { ExecutionContext } from '@nestjs/common';
import type { McpRequest } from '../../src/mcp/engine/dispatch/mcp-request.interface.js';
import { McpConnection } from '../../src/mcp/engine/connection/mcp-connection.js';
import { resolveMcpOptions } from '../../src/mcp/options/options.resolver.js';
import type { McpModuleOptions } from '../../src/mcp/options/mcp-options.interface.js';
import { McpAuditService } from '../../src/mcp/authorization/audit/mcp-audit.service.js';
import type { McpAuditEvent } from '../../src/mcp/authorization/audit/mcp-audit-event.interface.js';
import { McpAuthorizationService } from '../../src/mcp/authorization/mcp-authorization.service.js';
import { McpConnections } from '../../src/mcp/engine/connection/mcp-connections.service.js';
import { McpOutboundRequests } from '../../src/mcp/engine/outbound/mcp-outbound-requests.service.js';
import { McpTelemetry } from '../../src/mcp/telemetry/mcp-telemetry.service.js';

/* What the seam guard specs share: a request as the dispatcher builds it, and the audit trail. */
export function seamRequest<P>(method: string, params: P, principal?: McpRequest['principal']) {
  const request = {
    id: 1,
    method,
    params,
    connection: new McpConnection('c1'),
    era: 'legacy',
    transport: 'http',
    principal,
    signal: new AbortController().signal,
    cancelled: false,
    requestClient: () => Promise.reject(new Error('not used')),
    expire: () => undefined,
  } as McpRequest<P>;
  const context = { getArgByIndex: () => request } as unknown as ExecutionContext;
  return { request, context };
}

export function seamServices(options: Partial<McpModuleOptions>) {
  const resolved = resolveMcpOptions({ name: 't', version: '1', ...options });
  const authorization = new McpAuthorizationService(resolved);
  // The seam specs record no telemetry: every name counts as registered.
  const known = { method: () => true, tool: () => true, prompt: () => true };
  const telemetry = new McpTelemetry(
    new McpConnections(),
    new McpOutboundRequests(resolved),
    known,
  );
  const audit = new McpAuditService(telemetry);
  const events: McpAuditEvent[] = [];
  audit.events$.subscribe((event) => events.push(event));
  return { authorization, audit, events };
}
