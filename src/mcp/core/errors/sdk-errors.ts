import { McpWardenError } from './mcp-warden.error.js';

/*
 * The official SDK's protocol errors: `McpError` (v1, `@modelcontextprotocol/sdk`)
 * and `ProtocolError` (v2, `@modelcontextprotocol/server`), and their
 * subclasses. A user's handler may throw one, meaning exactly what it says.
 * They are recognised by class name along the prototype chain, because either
 * SDK may be absent, or present in more than one copy.
 */
const SDK_ERROR_CLASSES = new Set(['McpError', 'ProtocolError']);

/**
 * The protocol error a thrown value means to answer with: an `McpWardenError`
 * that answers the client as it is, an official SDK protocol error as one (same code, message and
 * data), anything else undefined (which the caller treats as internal).
 */
export function protocolErrorOf(error: unknown): McpWardenError | undefined {
  if (error instanceof McpWardenError) return error.answersClient ? error : undefined;
  return fromSdkError(error);
}

/** The error as an `McpWardenError` keeping its code, message and data, when it is an SDK protocol error. */
export function fromSdkError(error: unknown): McpWardenError | undefined {
  if (!(error instanceof Error) || !isSdkError(error)) return undefined;
  const { code, data } = error as Error & { code: unknown; data?: unknown };
  if (typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  return new McpWardenError(code, error.message, data);
}

function isSdkError(error: Error): boolean {
  for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto)) {
    if (proto === Error.prototype) return false;
    if (SDK_ERROR_CLASSES.has(proto.constructor?.name)) return true;
  }
  return false;
}
