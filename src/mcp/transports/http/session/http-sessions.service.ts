import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import { principalKey } from '../../../authentication/principal-key.js';
import { nextTurn } from '../../../core/common/next-turn.js';
import { McpWarden } from '../../../engine/mcp-warden.service.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { McpHttpSession } from './http-session.js';
import { SessionQuota } from './session.quota.js';
import { MCP_SESSION_DIRECTORY, type McpSessionDirectory } from './session-directory.interface.js';

/**
 * The live Streamable HTTP sessions. Ids are minted here (never taken from a
 * client), are cryptographically random and visible ASCII; sessions are
 * bounded in number and end after `sessionIdleMs` without requests or streams.
 */
@Injectable()
export class McpHttpSessions implements OnModuleDestroy {
  private readonly sessions = new Map<string, McpHttpSession>();
  private readonly quota: SessionQuota;
  private readonly sweeper: NodeJS.Timeout;
  /** Cluster mode: when each new session's record is visible to every instance. */
  private readonly recorded = new Map<string, Promise<void>>();

  constructor(
    private readonly server: McpWarden,
    @Inject(MCP_HTTP_SETTINGS) private readonly options: McpHttpSettings,
    /** Cluster mode: the sessions of every instance. */
    @Optional()
    @Inject(MCP_SESSION_DIRECTORY)
    private readonly directory: McpSessionDirectory | null = null,
  ) {
    this.quota = new SessionQuota(options.maxSessionsPerPrincipal);
    const every = Math.max(50, Math.min(options.sessionIdleMs / 2, 60_000));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  /** Open Streamable HTTP sessions on this instance. */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * Opens a session and its server connection for `principal`: 503 past the
   * total bound, 429 past `maxSessionsPerPrincipal` for `quotaKey` (the
   * principal, or the client address when anonymous).
   */
  create(principal?: McpPrincipal, quotaKey = principalKey(principal)): McpHttpSession {
    if (this.sessions.size >= this.options.maxSessions) {
      throw new McpHttpError(503, 'Service Unavailable: too many sessions');
    }
    this.quota.take(quotaKey);
    const id = randomBytes(24).toString('base64url');
    const owner = principalKey(principal);
    const shared = this.directory?.opened({ id, owner, quotaKey });
    if (shared) {
      // Handled here so that a failure is never unhandled; `open` still sees it.
      shared.recorded.catch(() => undefined);
      this.recorded.set(id, shared.recorded);
    }
    const session = new McpHttpSession(
      id,
      `http:${randomBytes(9).toString('base64url')}`,
      this.options,
      owner,
      quotaKey,
      shared?.mirror,
    );
    session.attach(
      this.server.subscribe(session.connId).subscribe((message) => session.route(message as never)),
    );
    this.sessions.set(id, session);
    return session;
  }

  /**
   * `create`, with the caller's session quota counted over every instance
   * first in cluster mode (429 past it).
   */
  async open(
    principal?: McpPrincipal,
    quotaKey = principalKey(principal),
  ): Promise<McpHttpSession> {
    if (this.sessions.size >= this.options.maxSessions) {
      throw new McpHttpError(503, 'Service Unavailable: too many sessions');
    }
    await this.directory?.takeQuota(quotaKey);
    const session = this.create(principal, quotaKey);
    try {
      await this.recorded.get(session.id);
    } catch {
      this.delete(session.id);
      throw new McpHttpError(503, 'Service Unavailable: the session could not be recorded');
    } finally {
      this.recorded.delete(session.id);
    }
    return session;
  }

  /** A live session held by this instance, whoever owns it (no side effect). */
  find(id: string): McpHttpSession | undefined {
    return this.sessions.get(id);
  }

  /**
   * The session a request names: 400 without an id, 404 for an unknown or
   * ended one, and 404 too for one that another principal owns (it must be
   * indistinguishable from an unknown id).
   */
  require(id: string | undefined, principal?: McpPrincipal): McpHttpSession {
    if (!id) throw new McpHttpError(400, 'Bad Request: Mcp-Session-Id header is required');
    const session = this.sessions.get(id);
    if (!session || session.owner !== principalKey(principal)) {
      throw new McpHttpError(404, 'Session not found');
    }
    session.lastSeen = Date.now();
    return session;
  }

  /** Whether `id` names a live session of `principal` (no side effect, never throws). */
  owns(id: string, principal?: McpPrincipal): boolean {
    return this.sessions.get(id)?.owner === principalKey(principal);
  }

  /** Ends session `id`: its streams close and its owner's quota is released. */
  delete(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    session.close();
    this.sessions.delete(id);
    this.quota.release(session.quotaKey);
    this.recorded.delete(id);
    this.directory?.closed(session);
  }

  /** Total events buffered for replay, over all sessions. */
  bufferedEvents(): number {
    let total = 0;
    for (const session of this.sessions.values()) total += session.bufferedEvents;
    return total;
  }

  /**
   * Ends every session idle for longer than `sessionIdleMs` at `now` (one with
   * an open stream is never idle). The interval timer calls it; it is public so
   * a test can drive expiry with a chosen clock instead of waiting on the real one.
   * @internal
   */
  sweep(now: number = Date.now()): void {
    const cutoff = now - this.options.sessionIdleMs;
    for (const [id, session] of this.sessions) {
      if (session.lastSeen < cutoff && !session.streaming) this.delete(id);
    }
    this.directory?.refresh([...this.sessions.keys()]);
  }

  /** Stops the idle sweep and ends every session (Nest calls it at shutdown). */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    // Calls still awaiting a client get their answer (the "connection closed" deny) on their
    // streams first; only then do the sessions, and their streams, end.
    for (const session of this.sessions.values()) this.server.endStreams(session.connId);
    await nextTurn();
    for (const id of [...this.sessions.keys()]) this.delete(id);
  }
}
