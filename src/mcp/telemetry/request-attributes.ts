import type { Attributes } from '@opentelemetry/api';
import { createHash } from 'node:crypto';
import type { McpConnection } from '../engine/connection/mcp-connection.js';
import type { McpMessageOrigin } from '../engine/dispatch/message-origin.interface.js';
import { isJsonObject, type RequestId } from '../core/protocol/jsonrpc.js';
import { META, SUPPORTED_MODERN_PROTOCOL_VERSIONS } from '../core/protocol/era.constants.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../core/protocol/protocol-version.js';
import { OTHER_VALUE, UNKNOWN_NAME, type McpRegisteredNames } from './registered-names.js';
import { ATTR, EXECUTE_TOOL, MAX_ATTRIBUTE_CHARS } from './telemetry.constants.js';

const URI_METHODS = new Set(['resources/read', 'resources/subscribe', 'resources/unsubscribe']);

/**
 * The conventions' span name: `{mcp.method.name} {target}`, the target being
 * the tool or prompt name (low cardinality: `_unknown` unless registered);
 * never a resource URI.
 */
export function spanNameOf(method: string, params: unknown, known: McpRegisteredNames): string {
  const label = methodLabel(method, known);
  const target = targetOf(method, params, known);
  return target === undefined ? label : `${label} ${target}`;
}

/**
 * The tool (`tools/call`) or prompt (`prompts/get`) a request names: as sent
 * when registered, else `_unknown`.
 */
export function targetOf(
  method: string,
  params: unknown,
  known: McpRegisteredNames,
): string | undefined {
  if (method !== 'tools/call' && method !== 'prompts/get') return undefined;
  const name = isJsonObject(params) ? params.name : undefined;
  if (typeof name !== 'string' || name.length === 0) return undefined;
  const registered = method === 'tools/call' ? known.tool(name) : known.prompt(name);
  return registered ? name : UNKNOWN_NAME;
}

/** The method as sent when the server serves it, else `_OTHER`. */
export function methodLabel(method: string, known: McpRegisteredNames): string {
  return known.method(method) ? method : OTHER_VALUE;
}

/** The attributes known when a request arrives (the server span's, at its start). */
export function requestAttributes(
  id: RequestId,
  method: string,
  params: unknown,
  connection: McpConnection,
  origin: McpMessageOrigin,
  known: McpRegisteredNames,
): Attributes {
  const attributes: Attributes = {
    [ATTR.requestId]: String(id),
    ...operationAttributes(method, params, connection, origin, known),
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
 * conventions' list, low cardinality: no ids, no URIs, and no name the
 * server did not register).
 */
export function operationAttributes(
  method: string,
  params: unknown,
  connection: McpConnection,
  origin: McpMessageOrigin,
  known: McpRegisteredNames,
): Attributes {
  const attributes: Attributes = { [ATTR.methodName]: methodLabel(method, known) };
  const target = targetOf(method, params, known);
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

/**
 * A modern request names its version in `_meta`; a handshake-era one agreed
 * on it at `initialize`. A declared version this server does not speak is
 * `_OTHER`: the client chose it, as it chooses tool names.
 */
function protocolVersionOf(params: unknown, connection: McpConnection): string | undefined {
  const meta = isJsonObject(params) ? params._meta : undefined;
  const declared = isJsonObject(meta) ? boundedString(meta[META.protocolVersion]) : undefined;
  if (declared === undefined) return connection.protocolVersion;
  return SPOKEN_VERSIONS.has(declared) ? declared : OTHER_VALUE;
}

const SPOKEN_VERSIONS = new Set<string>([
  ...SUPPORTED_PROTOCOL_VERSIONS,
  ...SUPPORTED_MODERN_PROTOCOL_VERSIONS,
]);

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
