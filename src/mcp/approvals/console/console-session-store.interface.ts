import { createHash } from 'node:crypto';
import type { McpPrincipal } from '../../authentication/principal.interface.js';

/** Injection token of the console's session store. */
export const MCP_CONSOLE_SESSION_STORE = Symbol('McpWarden:console-session-store');

/**
 * A signed-in operator as the server keeps them: the session cookie only names the record,
 * so ending the record ends the session wherever its cookie is replayed.
 */
export interface ConsoleSessionRecord {
  /** Random; the sealed cookie carries it. */
  readonly id: string;
  /** The operator, with the scopes the issuer last confirmed. */
  readonly operator: McpPrincipal;
  /** The per-session token every state change must echo (CSRF). */
  readonly csrf: string;
  /** The console the session belongs to: its public origin and path. */
  readonly audience: string;
  readonly createdAt: number;
  /** The session's absolute end (`sessionTtlMs` after sign-in, never extended). */
  readonly expiresAt: number;
  /** When the issuer must confirm the operator again before the session is served. */
  readonly checkAt: number;
  /** The issuer's refresh token, sealed; absent when the issuer gave none. */
  readonly grant?: string;
}

/** How many sessions a store holds: in all, and per operator. */
export interface ConsoleSessionBounds {
  readonly maxSessions: number;
  readonly maxPerOperator: number;
}

/**
 * Where console sessions live: in memory by default, in Redis in cluster mode, so that a
 * sign-out or a lost scope on any instance ends the session on all of them. Records expire at
 * `expiresAt` and the store is bounded in all and per operator.
 */
export interface McpConsoleSessionStore {
  /**
   * Records a new session. An operator at their bound loses their oldest session to it; false
   * when the store is full (the sign-in is then refused).
   */
  create(record: ConsoleSessionRecord): Promise<boolean>;
  /** The live record; undefined once ended or expired. */
  get(id: string): Promise<ConsoleSessionRecord | undefined>;
  /** Replaces a live record (after a re-check); false when the session ended meanwhile. */
  update(record: ConsoleSessionRecord): Promise<boolean>;
  /** Ends one session. */
  remove(id: string): Promise<void>;
  /** Ends every session of an operator (the same subject at the same issuer). */
  removeOperator(operator: McpPrincipal): Promise<void>;
  /**
   * Claims the re-check of a session that is due at `checkAt`, for `ms`: true for one caller
   * across instances, so a refresh token is never spent twice at once. The next round (a later
   * `checkAt`) is claimed afresh.
   */
  claim(id: string, checkAt: number, ms: number): Promise<boolean>;
}

/** The key an operator's sessions are counted and ended under. */
export function consoleOperatorKey(operator: McpPrincipal): string {
  return createHash('sha256')
    .update(`${operator.issuer ?? ''}\n${operator.subject}`)
    .digest('base64url');
}
