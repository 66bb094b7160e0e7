import canonicalize from 'canonicalize';
import { createHash } from 'node:crypto';

/**
 * What a `requestState` binds, sealed by the server (see
 * `McpRequestStateSealer`): the request it belongs to (method, target and a
 * digest of the canonical arguments), the caller, an expiry, a single-use
 * nonce, the input keys that round asked for, the answers of earlier rounds,
 * whether the caller already approved the call, and the operator ask it
 * waits on.
 */
export interface McpRequestStatePayload {
  /** Format version. */
  readonly v: 1;
  /** Method, target and arguments digest (`bindingOf`). */
  readonly b: string;
  /** The caller (`principalKey`). */
  readonly p: string;
  /** Expiry, ms since the epoch. */
  readonly exp: number;
  /** Single-use nonce. */
  readonly n: string;
  /** The input keys this state's round asked for. */
  readonly q: readonly string[];
  /** Answers of earlier rounds, by input key. */
  readonly a: Readonly<Record<string, unknown>>;
  /** The caller approved this call in an earlier round. */
  readonly ok?: true;
  /**
   * The operator ask this call waits on (docs/operator-approvals.md): the approval store's
   * record for it decides, never an answer the caller sends.
   */
  readonly o?: string;
}

/**
 * The request a state is bound to: the method, what it names (tool, prompt
 * or URI) and a SHA-256 of the canonical JSON (RFC 8785) of its arguments, so
 * a state cannot be moved to another tool or other arguments.
 */
export function bindingOf(method: string, params: Record<string, unknown>): string {
  const target = typeof params.name === 'string' ? params.name : String(params.uri ?? '');
  const args = canonicalize(params.arguments ?? {}) ?? '{}';
  const digest = createHash('sha256').update(args).digest('base64url');
  return `${method}\u0000${target}\u0000${digest}`;
}
