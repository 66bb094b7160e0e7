import type { Attributes } from '@opentelemetry/api';
import { createHash } from 'node:crypto';
import type { McpConnection } from '../server/connection/mcp-connection.js';
import type { McpMessageOrigin } from '../server/dispatch/message-origin.interface.js';
import { isJsonObject, type RequestId } from '../protocol/jsonrpc.js';
import { META } from '../era/era.constants.js';
import { ATTR, EXECUTE_TOOL, MAX_ATTRIBUTE_CHARS } from './telemetry.constants.js';

const URI_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/**
 * The conventions' span name: `{mcp.method.name} {target}`, the target being
 * the tool or prompt name (low cardinality); never a resource URI.
 */
export function spanNameOf(method: string, params: unknown): string {
  const target = targetOf(method, params);
  return target === undefined ? method : `${method} ${target}`;
}

/** The tool (`tools/call`) or prompt (`prompts/get`) a request names, bounded. */
export function targetOf(method: string, params: unknown): string | undefined {
  if (method !== 'tools/call' && method !== 'prompts/get') return undefined;
  return boundedString(isJsonObject(params) ? params.name : undefined);
}

/** The attributes known when a request arrives (the server span's, at its start). */
export function requestAttributes(
  id: RequestId,
  method: string,
  params: unknown,
  connection: McpConnection,
  origin: McpMessageOrigin,
): Attributes {
  const attributes: Attributes = {
    [ATTR.methodName]: method,
    [ATTR.requestId]: String(id),
    ...operationAttributes(method, params, connection, origin),
  };
  if (URI_METHODS.has(method)) {
    const uri = boundedString(isJsonObject(params) ? params.uri : undefined);
    if (uri !== undefined) attributes[ATTR.resourceUri] = uri;
  }
  const http = origin.httpRequest;
  if (http) {
    const session = http.headers['mcp-session-id'];
    if (typeof session === 'string' && session.length > 0) {
      attributes[ATTR.sessionId] = sessionIdOf(connection, session);
    }
    const address = http.socket?.remoteAddress;
    if (address) {
      attributes[ATTR.clientAddress] = address;
      if (http.socket.remotePort) attributes[ATTR.clientPort] = http.socket.remotePort;
    }
  }
  return attributes;
}

/**
 * The attributes `mcp.server.operation.duration` is broken down by (the
 * conventions' list, low cardinality: no ids, no URIs).
 */
export function operationAttributes(
  method: string,
  params: unknown,
  connection: McpConnection,
  origin: McpMessageOrigin,
): Attributes {
  const attributes: Attributes = { [ATTR.methodName]: method };
  const target = targetOf(method, params);
  if (target !== undefined) {
    if (method === 'tools/call') {
      attributes[ATTR.toolName] = target;
      attributes[ATTR.operationName] = EXECUTE_TOOL;
    } else {
      attributes[ATTR.promptName] = target;
    }
  }
  const version = protocolVersionOf(params, connection);
  if (version !== undefined) attributes[ATTR.protocolVersion] = version;
  Object.assign(attributes, transportAttributes(origin));
  return attributes;
}

/** `network.*` by the transport the message really arrived on (the conventions' table). */
export function transportAttributes(origin: McpMessageOrigin): Attributes {
  if (origin.transport === 'stdio') return { [ATTR.networkTransport]: 'pipe' };
  if (origin.transport !== 'http') return {};
  const attributes: Attributes = {
    [ATTR.networkTransport]: 'tcp',
    [ATTR.networkProtocolName]: 'http',
  };
  const version = origin.httpRequest?.httpVersion;
  if (version) attributes[ATTR.networkProtocolVersion] = version === '2.0' ? '2' : version;
  return attributes;
}

/** A modern request names its version in `_meta`; a handshake-era one agreed on it at `initialize`. */
function protocolVersionOf(params: unknown, connection: McpConnection): string | undefined {
  const meta = isJsonObject(params) ? params._meta : undefined;
  const declared = isJsonObject(meta) ? boundedString(meta[META.protocolVersion]) : undefined;
  return declared ?? connection.protocolVersion;
}

/*
 * A session id is a credential of sorts (whoever holds it speaks in that
 * session), so traces carry a digest that identifies the session without it.
 */
function sessionIdOf(connection: McpConnection, session: string): string {
  // One digest per session's connection, not one per request.
  const known = digests.get(connection);
  if (known?.session === session) return known.digest;
  const digest = createHash('sha256').update(session).digest('hex').slice(0, 32);
  digests.set(connection, { session, digest });
  return digest;
}

const digests = new WeakMap<McpConnection, { session: string; digest: string }>();

function boundedString(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  return value.length > MAX_ATTRIBUTE_CHARS ? value.slice(0, MAX_ATTRIBUTE_CHARS) : value;
}
