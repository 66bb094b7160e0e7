import { Inject, Injectable } from '@nestjs/common';
import { jwtDecrypt, EncryptJWT, type JWTPayload } from 'jose';
import { hkdfSync, randomBytes } from 'node:crypto';
import { MCP_CONSOLE_SETTINGS } from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';

/**
 * What a sealed value is for; each purpose has its own key, so one is never taken for another:
 * the two cookies, and the issuer's refresh token as the session store keeps it.
 */
export type ConsoleCookiePurpose = 'session' | 'login' | 'grant';

/** The longest sealed value read (a browser keeps about 4 kB per cookie anyway). */
const MAX_SEALED_LENGTH = 4096;

/**
 * Seals the console's cookies as encrypted JWTs (`dir`, A256GCM): the
 * browser can neither read nor change them, and they stop opening at their
 * `exp`. The keys come from `stateSecret` (instances sharing it accept each
 * other's sign-ins) or are random per process. Each is bound to the issuer
 * operators sign in at (`iss`) and to the console it was sealed for, its public
 * origin and path (`aud`): another deployment sharing the secret, at another
 * issuer or another origin or path, cannot open it.
 */
@Injectable()
export class ConsoleCookieSealer {
  private readonly keys: Record<ConsoleCookiePurpose, Uint8Array>;

  constructor(@Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings) {
    const secret = settings.stateSecret;
    const key = (purpose: ConsoleCookiePurpose) =>
      secret
        ? new Uint8Array(hkdfSync('sha256', secret, 'mcp-warden', `console-${purpose}`, 32))
        : new Uint8Array(randomBytes(32));
    this.keys = { session: key('session'), login: key('login'), grant: key('grant') };
  }

  /** The console's own identity as a cookie's audience: its public origin and its base path. */
  audienceOf(base: string): string {
    return `${this.settings.origin}${base}`;
  }

  /** Seals `payload` for `ttlMs`, for the console at `base`. */
  seal(
    purpose: ConsoleCookiePurpose,
    payload: JWTPayload,
    ttlMs: number,
    base: string,
  ): Promise<string> {
    return new EncryptJWT(payload)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuer(this.settings.issuer)
      .setAudience(this.audienceOf(base))
      .setIssuedAt()
      .setExpirationTime(new Date(Date.now() + ttlMs))
      .encrypt(this.keys[purpose]);
  }

  /**
   * The payload, or undefined for anything expired, changed, not sealed here, or sealed for
   * another issuer or another console than the one at `base`.
   */
  async open<T>(
    purpose: ConsoleCookiePurpose,
    sealed: string | undefined,
    base: string,
  ): Promise<T | undefined> {
    if (!sealed || sealed.length > MAX_SEALED_LENGTH) return undefined;
    try {
      const { payload } = await jwtDecrypt(sealed, this.keys[purpose], {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
        issuer: this.settings.issuer,
        audience: this.audienceOf(base),
      });
      return payload as unknown as T;
    } catch {
      return undefined;
    }
  }
}
