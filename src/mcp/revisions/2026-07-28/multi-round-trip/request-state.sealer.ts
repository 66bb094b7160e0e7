import { Inject, Injectable, Optional } from '@nestjs/common';
import { hkdfSync, randomBytes } from 'node:crypto';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../../authentication/authentication-settings.interface.js';
import type { McpRequestStatePayload } from '../../../core/multi-round-trip/request-state.js';
import { loadJose } from '../../../core/common/jose.loader.js';
import { McpWardenError } from '../../../core/errors/mcp-warden.error.js';
import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import { McpServerScope } from '../../../core/servers/mcp-server-scope.service.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Seals and opens `requestState` as a compact JWE (`dir`, A256GCM): the
 * client can neither read the answers and bindings inside nor change a byte
 * without the open failing. The key comes from `stateSecret` (so instances
 * sharing the secret accept each other's states), or is random per process.
 * With several servers in one app, the key is bound to the server's name
 * too: one secret given to both never lets a state of one open on the other.
 */
@Injectable()
export class McpRequestStateSealer {
  private readonly key: Uint8Array;
  /**
   * The longest state: it must come back inside a request body, so a state
   * longer than `limits.maxBodyBytes` is neither issued nor read.
   */
  private readonly maxLength: number;

  constructor(
    @Inject(MCP_OPTIONS) options: McpAuthenticationSettings & { readonly name: string },
    @Optional() @Inject(McpServerScope) scope?: Pick<McpServerScope, 'several'>,
  ) {
    this.maxLength = options.limits.maxBodyBytes;
    const info = scope?.several ? `requestState:${options.name}` : 'requestState';
    this.key = options.stateSecret
      ? new Uint8Array(hkdfSync('sha256', options.stateSecret, 'mcp-warden', info, 32))
      : new Uint8Array(randomBytes(32));
  }

  /** Seals `payload`; rejects when the state could not come back in a request body. */
  async seal(payload: McpRequestStatePayload): Promise<string> {
    const { CompactEncrypt } = await loadJose();
    const state = await new CompactEncrypt(encoder.encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(this.key);
    if (state.length > this.maxLength) {
      throw new McpWardenError(
        JsonRpcErrorCode.InternalError,
        'The answers of this request are too large to carry in its requestState',
      );
    }
    return state;
  }

  /** The payload, or undefined for anything this server did not seal unchanged. */
  async open(state: string): Promise<McpRequestStatePayload | undefined> {
    if (state.length > this.maxLength) return undefined;
    try {
      const { compactDecrypt } = await loadJose();
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
