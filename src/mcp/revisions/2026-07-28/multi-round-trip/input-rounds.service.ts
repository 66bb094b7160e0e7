import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { principalKey } from '../../../authentication/principal-key.js';
import { quotaKeyOf } from '../../../authentication/quota-key.js';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import { MCP_OPTIONS } from '../../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../../authentication/authentication-settings.interface.js';
import { isJsonObject } from '../../../core/protocol/jsonrpc.js';
import { McpInputRound, type McpStateProblem } from '../../../core/multi-round-trip/input-round.js';
import { MCP_NONCE_STORE, type McpNonceStore } from '../../../core/stores/nonce-store.interface.js';
import { bindingOf } from '../../../core/multi-round-trip/request-state.js';
import { McpRequestStateSealer } from './request-state.sealer.js';

/** The input-required result of a round that asked for something (spec: MRTR). */
export interface McpInputRequiredResult {
  resultType: 'input_required';
  inputRequests: Record<string, { method: string; params: object }>;
  requestState: string;
}

/**
 * Opens a modern request's round from the `requestState` and
 * `inputResponses` it carries, and seals the state of the next round. The
 * state is attacker-controlled input: it is accepted only when this server
 * sealed it, for this method, target and arguments, for this caller, before
 * its expiry, and only once. Through a state, answers count only for the
 * keys its round asked for.
 */
@Injectable()
export class McpInputRounds {
  constructor(
    private readonly sealer: McpRequestStateSealer,
    @Inject(MCP_NONCE_STORE) private readonly nonces: McpNonceStore,
    @Inject(MCP_OPTIONS) private readonly options: McpAuthenticationSettings,
  ) {}

  /**
   * The round `raw` opens for `principal`. `caller` is its quota key (the
   * principal, else its client address): a presented state's nonce counts
   * against that caller's share of the nonce store.
   */
  async begin(
    method: string,
    raw: Record<string, unknown>,
    params: Record<string, unknown>,
    principal: McpPrincipal | undefined,
    caller = quotaKeyOf(principal, undefined, 'local'),
  ): Promise<McpInputRound> {
    const responses = isJsonObject(raw.inputResponses) ? raw.inputResponses : {};
    const state = raw.requestState;
    if (state === undefined) return new McpInputRound(responses, {}, false);
    if (typeof state !== 'string') return refused('approval state invalid');
    const payload = await this.sealer.open(state);
    if (
      !payload ||
      payload.b !== bindingOf(method, params) ||
      payload.p !== principalKey(principal)
    ) {
      return refused('approval state invalid');
    }
    if (!(payload.exp > Date.now())) return refused('approval expired');
    if (!(await this.nonces.consume(payload.n, payload.exp, caller))) {
      return refused('approval already used');
    }
    const verified: Record<string, unknown> = { ...payload.a };
    for (const key of payload.q) {
      if (Object.hasOwn(responses, key)) verified[key] = responses[key];
    }
    const operatorAsk = typeof payload.o === 'string' ? payload.o : undefined;
    return new McpInputRound(responses, verified, payload.ok === true, undefined, operatorAsk);
  }

  /** The input-required result for a round that asked, with the sealed state of the next one. */
  async inputRequired(
    round: McpInputRound,
    method: string,
    params: Record<string, unknown>,
    principal: McpPrincipal | undefined,
  ): Promise<McpInputRequiredResult> {
    const { asked, answers } = round.carried();
    const requestState = await this.sealer.seal({
      v: 1,
      b: bindingOf(method, params),
      p: principalKey(principal),
      exp: Date.now() + this.options.elicitationTimeoutMs,
      n: randomBytes(16).toString('base64url'),
      q: asked,
      a: answers,
      ...(round.approved ? { ok: true as const } : {}),
      ...(round.operatorAsk !== undefined ? { o: round.operatorAsk } : {}),
    });
    return { resultType: 'input_required', inputRequests: round.inputRequests(), requestState };
  }
}

/* A presented state this server refuses: nothing the client sent counts. */
function refused(problem: McpStateProblem): McpInputRound {
  return new McpInputRound({}, {}, false, problem);
}
