import type { McpEventMirror } from '../sse/event-mirror.interface.js';

/** What the directory records of a session: who holds it and whose it is. */
export interface McpSessionRecord {
  readonly id: string;
  /** The principal key of its creator (only it may use the session). */
  readonly owner: string;
  /** Whose session quota it counts against. */
  readonly quotaKey: string;
}

/**
 * The sessions every instance can see (cluster mode); without it, sessions
 * are this process's own. The owning instance announces the sessions it
 * opens, keeps them fresh and withdraws them; their quota is counted over
 * every instance.
 */
export interface McpSessionDirectory {
  /** Counts one more session for `quotaKey` over every instance, or throws the 429 refusal. */
  takeQuota(quotaKey: string): Promise<void>;
  /**
   * Records a session this instance now holds; returns the mirror its events
   * go to, and when the record is visible to every instance (the initialize
   * answer waits for it: the client's next request may land anywhere).
   */
  opened(session: McpSessionRecord): { mirror: McpEventMirror; recorded: Promise<void> };
  /** Withdraws a session this instance held, and its share of the quota. */
  closed(session: McpSessionRecord): void;
  /** Keeps the records of the sessions still held from expiring. */
  refresh(ids: readonly string[]): void;
}

/** DI token of the session directory (null without `cluster`). */
export const MCP_SESSION_DIRECTORY = 'McpWarden:sessionDirectory';
