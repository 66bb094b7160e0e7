import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../auth/principal.interface.js';
import { ConsoleCookieSealer } from './console-cookie.sealer.js';
import { readCookie, hostCookie } from './console-cookies.js';
import { MCP_CONSOLE_SETTINGS, SESSION_COOKIE } from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';

/** A signed-in operator, as the session cookie carries them. */
export interface ConsoleSession {
  readonly operator: McpPrincipal;
  /** The per-session token every decision must echo (CSRF). */
  readonly csrf: string;
}

interface SessionPayload {
  sub: string;
  iss?: string;
  scp: string[];
  csrf: string;
}

/**
 * Operator sessions live entirely in their sealed cookie: no server state,
 * so any instance sharing `stateSecret` serves them, and nothing grows with
 * the number of operators. A session is only ever issued to an approver.
 */
@Injectable()
export class ConsoleSessions {
  constructor(
    private readonly sealer: ConsoleCookieSealer,
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
  ) {}

  /** The `Set-Cookie` value that signs `operator` in. */
  async issue(operator: McpPrincipal): Promise<string> {
    const payload: SessionPayload = {
      sub: operator.subject,
      iss: operator.issuer,
      scp: [...operator.scopes],
      csrf: randomBytes(32).toString('base64url'),
    };
    const sealed = await this.sealer.seal('session', { ...payload }, this.settings.sessionTtlMs);
    return hostCookie(SESSION_COOKIE, sealed, this.settings.sessionTtlMs);
  }

  /** The request's session, if it carries a valid one that still holds the approver scope. */
  async of(req: IncomingMessage): Promise<ConsoleSession | undefined> {
    const payload = await this.sealer.open<SessionPayload & { exp?: number }>(
      'session',
      readCookie(req, SESSION_COOKIE),
    );
    if (!payload || typeof payload.sub !== 'string' || typeof payload.csrf !== 'string') {
      return undefined;
    }
    const scopes = Array.isArray(payload.scp)
      ? payload.scp.filter((s) => typeof s === 'string')
      : [];
    if (!scopes.includes(this.settings.scope)) return undefined;
    return {
      operator: { subject: payload.sub, issuer: payload.iss, scopes },
      csrf: payload.csrf,
    };
  }
}

/** Whether `sent` is the session's CSRF token (constant time). */
export function csrfMatches(session: ConsoleSession, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const expected = Buffer.from(session.csrf);
  const given = Buffer.from(sent);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
