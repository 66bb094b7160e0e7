import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConsoleCookieSealer } from './console-cookie.sealer.js';
import {
  ConsoleIssuerRefusal,
  ConsoleOidcClient,
  type ConsoleIssuerAnswer,
} from './console-oidc.client.js';
import {
  MCP_CONSOLE_SESSION_STORE,
  type ConsoleSessionRecord,
  type McpConsoleSessionStore,
} from './console-session-store.interface.js';
import {
  MCP_CONSOLE_SETTINGS,
  MIN_SESSION_RECHECK_MS,
  RECHECK_CLAIM_MS,
  SESSION_RECHECK_MS,
} from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';

/**
 * Keeps a session true to the issuer. A session is served until its `checkAt`; then, with a
 * refresh token, the issuer is asked again (at most every `SESSION_RECHECK_MS`, sooner when
 * its access tokens live shorter), and without one the session ends with the access token it
 * was signed in with. An answer without the approver scope ends every session of the
 * operator; a refusal ends this one.
 */
@Injectable()
export class ConsoleSessionRecheck {
  private readonly logger = new Logger('McpConsole');
  /* One re-check per session per instance; the store's claim makes it one across instances. */
  private readonly running = new Map<string, Promise<ConsoleSessionRecord | undefined>>();

  constructor(
    private readonly oidc: ConsoleOidcClient,
    private readonly sealer: ConsoleCookieSealer,
    @Inject(MCP_CONSOLE_SESSION_STORE) private readonly store: McpConsoleSessionStore,
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
  ) {}

  /** When a session the issuer just vouched for must be confirmed again. */
  checkAt(now: number, answer: ConsoleIssuerAnswer, expiresAt: number): number {
    const tokenLife = answer.expiresInMs ?? SESSION_RECHECK_MS;
    const wait = answer.refreshToken ? Math.min(tokenLife, SESSION_RECHECK_MS) : tokenLife;
    return Math.min(expiresAt, now + Math.max(MIN_SESSION_RECHECK_MS, wait));
  }

  /** The record once confirmed (updated in the store), or undefined when the session ended. */
  confirm(record: ConsoleSessionRecord, base: string): Promise<ConsoleSessionRecord | undefined> {
    let running = this.running.get(record.id);
    if (!running) {
      running = this.run(record, base).finally(() => this.running.delete(record.id));
      this.running.set(record.id, running);
    }
    return running;
  }

  private async run(
    record: ConsoleSessionRecord,
    base: string,
  ): Promise<ConsoleSessionRecord | undefined> {
    const sealed = await this.sealer.open<{ rt?: unknown }>('grant', record.grant, base);
    if (typeof sealed?.rt !== 'string') {
      // Nothing to ask the issuer with: the session lasted as long as its access token.
      await this.store.remove(record.id);
      return undefined;
    }
    if (!(await this.store.claim(record.id, record.checkAt, RECHECK_CLAIM_MS))) {
      // Another instance is asking the issuer now: the record stands until it answers.
      return Date.now() < record.checkAt + RECHECK_CLAIM_MS ? record : undefined;
    }
    let answer: ConsoleIssuerAnswer;
    try {
      answer = await this.oidc.refresh(sealed.rt, record.operator.scopes);
    } catch (error) {
      if (error instanceof ConsoleIssuerRefusal) {
        this.logger.log(`session of ${record.operator.subject} ended: the issuer refused it`);
        await this.store.remove(record.id);
      } else {
        // An outage is no answer: this request is refused, the next one asks again.
        this.logger.warn(`session re-check failed: ${(error as Error).message}`);
      }
      return undefined;
    }
    if (!answer.scopes.includes(this.settings.scope)) {
      this.logger.log(`sessions of ${record.operator.subject} ended: the approver scope is gone`);
      await this.store.removeOperator(record.operator);
      return undefined;
    }
    const now = Date.now();
    const next: ConsoleSessionRecord = {
      ...record,
      operator: { ...record.operator, scopes: [...answer.scopes] },
      checkAt: this.checkAt(now, { ...answer, refreshToken: sealed.rt }, record.expiresAt),
      grant: await this.sealer.seal(
        'grant',
        { rt: answer.refreshToken ?? sealed.rt },
        record.expiresAt - now,
        base,
      ),
    };
    return (await this.store.update(next)) ? next : undefined;
  }
}
