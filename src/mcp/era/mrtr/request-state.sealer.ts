import { Inject, Injectable } from '@nestjs/common';
import { compactDecrypt, CompactEncrypt } from 'jose';
import { hkdfSync, randomBytes } from 'node:crypto';
import { MCP_OPTIONS } from '../../options/options.constants.js';
import type { McpResolvedOptions } from '../../options/resolved-options.interface.js';
import type { McpRequestStatePayload } from './request-state.js';

/** A state longer than this is refused unread (it is attacker-controlled input). */
const MAX_STATE_LENGTH = 64 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Seals and opens `requestState` as a compact JWE (`dir`, A256GCM): the
 * client can neither read the answers and bindings inside nor change a byte
 * without the open failing. The key comes from `stateSecret` (so instances
 * sharing the secret accept each other's states), or is random per process.
 */
@Injectable()
export class McpRequestStateSealer {
  private readonly key: Uint8Array;

  constructor(@Inject(MCP_OPTIONS) options: McpResolvedOptions) {
    this.key = options.stateSecret
      ? new Uint8Array(hkdfSync('sha256', options.stateSecret, 'mcp-warden', 'requestState', 32))
      : new Uint8Array(randomBytes(32));
  }

  seal(payload: McpRequestStatePayload): Promise<string> {
    return new CompactEncrypt(encoder.encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(this.key);
  }

  /** The payload, or undefined for anything this server did not seal unchanged. */
  async open(state: string): Promise<McpRequestStatePayload | undefined> {
    if (state.length > MAX_STATE_LENGTH) return undefined;
    try {
      const { plaintext } = await compactDecrypt(state, this.key, {
        keyManagementAlgorithms: ['dir'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      const payload = JSON.parse(decoder.decode(plaintext)) as McpRequestStatePayload;
      return payload?.v === 1 ? payload : undefined;
    } catch {
      return undefined;
    }
  }
}
