import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConsoleCookieSealer } from './console-cookie.sealer.js';
import { clearedCookie, hostCookie, readCookie } from './console-cookies.js';
import { ConsoleOidcClient, type ConsoleLoginState } from './console-oidc.client.js';
import { renderMessagePage } from './console-page.renderer.js';
import { redirect, reply } from './console-reply.js';
import { ConsoleSessions, csrfMatches } from './console-session.service.js';
import {
  LOGIN_COOKIE,
  LOGIN_TTL_MS,
  MCP_CONSOLE_SETTINGS,
  SESSION_COOKIE,
} from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';
import { readFields, sameOrigin } from './console-request.js';

/**
 * Signing operators in and out. The redirect URI is the console's public
 * origin (`oidc.publicUrl`) with the path the browser used, never the
 * request's Host header. Only an operator the issuer granted the approver
 * scope gets a session; anyone else gets a 403 page and no cookie.
 */
@Injectable()
export class ConsoleSignIn {
  private readonly logger = new Logger('McpConsole');

  constructor(
    private readonly oidc: ConsoleOidcClient,
    private readonly sealer: ConsoleCookieSealer,
    private readonly sessions: ConsoleSessions,
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
  ) {}

  async login(res: ServerResponse, base: string, returnTo?: string): Promise<void> {
    const redirectUri = new URL(`${base}/callback`, this.settings.origin).href;
    let started: { url: string; login: ConsoleLoginState };
    try {
      started = await this.oidc.start(redirectUri);
    } catch (error) {
      this.logger.warn(`sign-in cannot start: ${(error as Error).message}`);
      return this.page(res, base, 503, 'Sign-in unavailable', 'The issuer cannot be reached.');
    }
    const back = returnTo && isUnder(returnTo, base) ? { returnTo } : {};
    const sealed = await this.sealer.seal(
      'login',
      { ...started.login, ...back },
      LOGIN_TTL_MS,
      base,
    );
    redirect(res, started.url, { 'Set-Cookie': hostCookie(LOGIN_COOKIE, sealed, LOGIN_TTL_MS) });
  }

  async callback(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
    const login = await this.sealer.open<ConsoleLoginState & { exp?: number }>(
      'login',
      readCookie(req, LOGIN_COOKIE),
      base,
    );
    const cleared = clearedCookie(LOGIN_COOKIE);
    if (!login) {
      return this.page(
        res,
        base,
        400,
        'Sign-in failed',
        'The sign-in expired or was not started here.',
        [cleared],
      );
    }
    const query = (req.url ?? '').includes('?') ? (req.url ?? '').slice(req.url!.indexOf('?')) : '';
    let signedIn;
    try {
      signedIn = await this.oidc.finish(new URL(query, login.redirectUri), login);
    } catch (error) {
      this.logger.warn(`sign-in refused: ${(error as Error).message}`);
      return this.page(
        res,
        base,
        400,
        'Sign-in failed',
        'The issuer\u2019s answer was not accepted.',
        [cleared],
      );
    }
    const { operator, answer } = signedIn;
    if (!operator.scopes.includes(this.settings.scope)) {
      return this.page(
        res,
        base,
        403,
        'Not an approver',
        `You signed in as ${operator.subject}, who may not approve calls (the ${this.settings.scope} scope is missing).`,
        [cleared, clearedCookie(SESSION_COOKIE)],
      );
    }
    const session = await this.sessions.issue(operator, answer, base);
    if (!session) {
      this.logger.warn('sign-in refused: the console holds as many sessions as it may');
      return this.page(res, base, 503, 'Sign-in unavailable', 'Too many operators are signed in.', [
        cleared,
      ]);
    }
    const back = login.returnTo && isUnder(login.returnTo, base) ? login.returnTo : base;
    redirect(res, back, { 'Set-Cookie': [cleared, session] });
  }

  /** Ends the session on the server (every instance), then clears its cookie. */
  async logout(wrapper: object, req: IncomingMessage, res: ServerResponse, base: string) {
    const session = await this.sessions.of(req, base);
    const fields = await readFields(wrapper, req);
    // The token in a header or a field, as a decision takes it (the form sends the field).
    const token = req.headers['x-csrf-token'] ?? fields.csrf;
    if (session && (!sameOrigin(req, this.settings.origin) || !csrfMatches(session, token))) {
      return this.page(res, base, 403, 'Refused', 'Signing out needs the console\u2019s own page.');
    }
    if (session) await this.sessions.end(session, base);
    this.page(
      res,
      base,
      200,
      'Signed out',
      'You are signed out of the console.',
      [clearedCookie(SESSION_COOKIE)],
      'Sign in again',
    );
  }

  private page(
    res: ServerResponse,
    base: string,
    status: number,
    title: string,
    message: string,
    cookies: string[] = [],
    action?: string,
  ): void {
    const headers = cookies.length > 0 ? { 'Set-Cookie': cookies } : undefined;
    reply(res, status, 'html', renderMessagePage(base, title, message, action), headers);
  }
}

/* A path of the console itself: never another site, never another part of the app (open redirect). */
function isUnder(path: string, base: string): boolean {
  if (/[\\\s]/.test(path) || path.startsWith('//')) return false;
  return path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`);
}
