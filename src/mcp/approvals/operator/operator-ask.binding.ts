import { createHash } from 'node:crypto';
import { quotaKeyOf } from '../../authentication/quota-key.js';
import { bindingOf } from '../../core/multi-round-trip/request-state.js';
import type { McpRequest } from '../../engine/dispatch/mcp-request.interface.js';

/**
 * What ties a `tools/call` to the operator ask it made (docs/operator-approvals.md), so that
 * the same call retried after an approval finds it, and no other call can: the caller (its
 * issuer and subject; for an anonymous caller its address, or its connection), the tool, and
 * the digest of the canonical arguments, as the modern era binds a `requestState`
 * (`bindingOf`). Hashed: the store keeps it as a key, never the arguments.
 */
export function operatorBinding(request: McpRequest): string {
  const caller = quotaKeyOf(request.principal, request.httpRequest, request.connection.id);
  const call = bindingOf('tools/call', request.params as Record<string, unknown>);
  return createHash('sha256').update(`${caller}\u0000${call}`).digest('base64url');
}
