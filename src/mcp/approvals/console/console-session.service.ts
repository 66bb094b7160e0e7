import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import { ConsoleCookieSealer } from './console-cookie.sealer.js';
import { readCookie, hostCookie } from './console-cookies.js';
import { ConsoleOidcClient, type ConsoleIssuerAnswer } from './console-oidc.client.js';
import {
  MCP_CONSOLE_SESSION_STORE,
  type ConsoleSessionRecord,
  type McpConsoleSessionStore,
} from './console-session-store.interface.js';
import { ConsoleSessionRecheck } from './console-session.recheck.js';
import { MCP_CONSOLE_SETTINGS, SESSION_COOKIE } from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';

/** A signed-in operator, as a request's session cookie names them. */
export interface ConsoleSession {
  /** The server-side record's id (what signing out ends). */
  readonly id: string;
  readonly operator: McpPrincipal;
  /** The per-session token every decision must echo (CSRF). */
  readonly csrf: string;
}

/**
 * Operator sessions. The record lives on the server (the session store: in Redis in cluster
 * mode); the sealed cookie only names it, bound to this console and its issuer. Every request
 * reads the record, so signing out, or losing the approver scope at the issuer, ends a
 * session at once on every instance, whatever copies of its cookie are about.
 */
@Injectable()
export class ConsoleSessions {
  private readonly logger = new Logger('McpConsole');

  constructor(
    private readonly sealer: ConsoleCookieSealer,
    private readonly recheck: ConsoleSessionRecheck,
    private readonly oidc: ConsoleOidcClient,
    @Inject(MCP_CONSOLE_SESSION_STORE) private readonly store: McpConsoleSessionStore,
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
  ) {}

  /**
   * The `Set-Cookie` value that signs `operator` in to the console at `base`, the issuer's
   * `answer` deciding when it is asked again; undefined when the store is full.
   */
  async issue(
    operator: McpPrincipal,
    answer: ConsoleIssuerAnswer,
    base: string,
  ): Promise<string | undefined> {
    const now = Date.now();
    const ttl = this.settings.sessionTtlMs;
    const expiresAt = now + ttl;
    const { refreshToken } = answer;
    const record: ConsoleSessionRecord = {
      id: randomBytes(32).toString('base64url'),
      operator: {
        subject: operator.subject,
        issuer: operator.issuer,
        scopes: [...operator.scopes],
      },
      csrf: randomBytes(32).toString('base64url'),
      audience: this.sealer.audienceOf(base),
      createdAt: now,
      expiresAt,
      checkAt: this.recheck.checkAt(now, answer, expiresAt),
      ...(refreshToken
        ? { grant: await this.sealer.seal('grant', { rt: refreshToken }, ttl, base) }
        : {}),
    };
    if (!(await this.store.create(record))) return undefined;
    const sealed = await this.sealer.seal('session', { sid: record.id }, ttl, base);
    return hostCookie(SESSION_COOKIE, sealed, ttl);
  }

  /** The request's session at the console at `base`, if it is live and still an approver's. */
  async of(req: IncomingMessage, base: string): Promise<ConsoleSession | undefined> {
    const cookie = await this.sealer.open<{ sid?: unknown }>(
      'session',
      readCookie(req, SESSION_COOKIE),
      base,
    );
    if (typeof cookie?.sid !== 'string') return undefined;
    let record = await this.store.get(cookie.sid);
    if (!record || record.audience !== this.sealer.audienceOf(base)) return undefined;
    if (record.checkAt <= Date.now()) record = await this.recheck.confirm(record, base);
    if (!record?.operator.scopes.includes(this.settings.scope)) return undefined;
    return { id: record.id, operator: record.operator, csrf: record.csrf };
  }

  /** Ends a session on every instance, and gives its refresh token back to the issuer. */
  async end(session: ConsoleSession, base: string): Promise<void> {
    const record = await this.store.get(session.id);
    await this.store.remove(session.id);
    const sealed = await this.sealer.open<{ rt?: unknown }>('grant', record?.grant, base);
    if (typeof sealed?.rt !== 'string') return;
    // Best effort, after the session is gone: an issuer that cannot be reached changes nothing.
    this.oidc.revoke(sealed.rt).catch((error: Error) => {
      this.logger.warn(`refresh token not revoked: ${error.message}`);
    });
  }
}

/** Whether `sent` is the session's CSRF token (constant time). */
export function csrfMatches(session: ConsoleSession, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(session.csrf);
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
