import { Inject, Injectable } from '@nestjs/common';
import { jwtDecrypt, EncryptJWT, type JWTPayload } from 'jose';
import { hkdfSync, randomBytes } from 'node:crypto';
import { MCP_CONSOLE_SETTINGS } from './console.constants.js';
import type { McpConsoleSettings } from './console-settings.js';

/** What a sealed cookie is for; each purpose has its own key, so one is never taken for another. */
export type ConsoleCookiePurpose = 'session' | 'login';

/** The longest sealed cookie read (a browser keeps about 4 kB per cookie anyway). */
const MAX_SEALED_LENGTH = 4096;

/**
 * Seals the console's cookies as encrypted JWTs (`dir`, A256GCM): the
 * browser can neither read nor change them, and they stop opening at their
 * `exp`. The keys come from `stateSecret` (instances sharing it accept each
 * other's sign-ins) or are random per process.
 */
@Injectable()
export class ConsoleCookieSealer {
  private readonly keys: Record<ConsoleCookiePurpose, Uint8Array>;

  constructor(@Inject(MCP_CONSOLE_SETTINGS) settings: McpConsoleSettings) {
    const secret = settings.stateSecret;
    const key = (purpose: ConsoleCookiePurpose) =>
      secret
        ? new Uint8Array(hkdfSync('sha256', secret, 'mcp-warden', `console-${purpose}`, 32))
        : new Uint8Array(randomBytes(32));
    this.keys = { session: key('session'), login: key('login') };
  }

  /** Seals `payload` for `ttlMs`. */
  seal(purpose: ConsoleCookiePurpose, payload: JWTPayload, ttlMs: number): Promise<string> {
    return new EncryptJWT(payload)
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setIssuedAt()
      .setExpirationTime(new Date(Date.now() + ttlMs))
      .encrypt(this.keys[purpose]);
  }

  /** The payload, or undefined for anything expired, changed or not sealed here. */
  async open<T>(purpose: ConsoleCookiePurpose, sealed: string | undefined): Promise<T | undefined> {
    if (!sealed || sealed.length > MAX_SEALED_LENGTH) return undefined;
    try {
      const { payload } = await jwtDecrypt(sealed, this.keys[purpose], {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      return payload as unknown as T;
    } catch {
      return undefined;
    }
  }
}
