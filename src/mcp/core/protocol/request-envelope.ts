import { LoggingLevelSchema } from '@modelcontextprotocol/core';
import { McpInvalidParamsError } from '../errors/protocol.errors.js';
import type { McpWardenError } from '../errors/mcp-warden.error.js';
import { isJsonObject } from './jsonrpc.js';
import type { ClientCapabilities, LoggingLevel } from './mcp-types.js';
import { META, SUPPORTED_MODERN_PROTOCOL_VERSIONS } from './era.constants.js';
import { McpUnsupportedProtocolVersionError } from './era.errors.js';
import { readClientCapabilities } from './client-capabilities.reader.js';

/** What a modern request declares about itself in `params._meta`. */
export interface McpRequestEnvelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  /** Absent: the client wants no log notifications for this request. */
  readonly logLevel?: LoggingLevel;
}

/** How one message is to be served: handshake era, modern era, or refused for a bad envelope. */
export type McpEraReading =
  | { readonly era: 'legacy' }
  | { readonly era: 'modern'; readonly envelope: McpRequestEnvelope }
  | { readonly era: 'modern'; readonly error: McpWardenError };

const LEGACY: McpEraReading = Object.freeze({ era: 'legacy' });

/** The `_meta` object of a message's params, when there is one. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  const meta = isJsonObject(params) ? params._meta : undefined;
  return isJsonObject(meta) ? meta : undefined;
}

/**
 * Reads a message's era from its body, as the spec's dual-era rule says: a
 * request whose `_meta` carries the protocol-version key claims the modern
 * envelope (and a malformed envelope behind that claim is an error, never a
 * silent fall back to the handshake era); anything else is handshake-era
 * traffic. `initialize` stays in the handshake era unless it carries a valid
 * modern claim, which the modern era then answers as a removed method.
 */
export function readEra(params: unknown): McpEraReading {
  const meta = metaOf(params);
  if (!meta || !(META.protocolVersion in meta)) return LEGACY;
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string') {
    return invalid(`${META.protocolVersion}: expected a protocol version string`);
  }
  if (!(META.clientCapabilities in meta)) {
    return invalid(`${META.clientCapabilities}: missing`);
  }
  const clientCapabilities = readClientCapabilities(meta[META.clientCapabilities]);
  if (!clientCapabilities) return invalid(`${META.clientCapabilities}: expected an object`);
  let logLevel: LoggingLevel | undefined;
  if (META.logLevel in meta) {
    const level = LoggingLevelSchema.safeParse(meta[META.logLevel]);
    if (!level.success) return invalid(`${META.logLevel}: not a log level`);
    logLevel = level.data;
  }
  // A well-formed envelope naming a revision this server does not serve.
  if (!SUPPORTED_MODERN_PROTOCOL_VERSIONS.includes(version)) {
    const error = new McpUnsupportedProtocolVersionError(
      SUPPORTED_MODERN_PROTOCOL_VERSIONS,
      version,
    );
    return { era: 'modern', error };
  }
  return {
    era: 'modern',
    envelope: { protocolVersion: version, clientCapabilities, logLevel },
  };
}

function invalid(problem: string): McpEraReading {
  return {
    era: 'modern',
    error: new McpInvalidParamsError(
      `Invalid _meta envelope for protocol revision 2026-07-28: ${problem}`,
    ),
  };
}
