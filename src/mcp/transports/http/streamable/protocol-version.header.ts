import type { IncomingMessage } from 'node:http';
import { isSupportedProtocolVersion } from '../../../core/protocol/protocol-version.js';
import { SUPPORTED_MODERN_PROTOCOL_VERSIONS } from '../../../core/protocol/era.constants.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';

/**
 * 400 for an `MCP-Protocol-Version` header naming a version this server does
 * not speak. Any supported version is accepted on any session (clients and
 * the conformance suite send 2025-03-26 on newer sessions); an absent header
 * means 2025-03-26, as the spec allows. A modern revision is accepted here
 * and checked against the body's envelope by the modern path.
 */
export function checkProtocolVersionHeader(req: IncomingMessage): void {
  const header = req.headers['mcp-protocol-version'];
  if (header === undefined) return;
  if (
    !isSupportedProtocolVersion(header) &&
    !SUPPORTED_MODERN_PROTOCOL_VERSIONS.includes(String(header))
  ) {
    throw new McpHttpError(400, `Bad Request: unsupported MCP-Protocol-Version ${String(header)}`);
  }
}
