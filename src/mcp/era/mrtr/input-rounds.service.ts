import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { principalKey } from '../../auth/principal-key.js';
import type { McpPrincipal } from '../../auth/principal.interface.js';
import { MCP_OPTIONS } from '../../options/options.constants.js';
import type { McpResolvedOptions } from '../../options/resolved-options.interface.js';
import { isJsonObject } from '../../protocol/jsonrpc.js';
import { McpInputRound } from './input-round.js';
import { MCP_NONCE_STORE, type McpNonceStore } from './nonce-store.interface.js';
import { bindingOf } from './request-state.js';
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
 * its expiry, and only once. Answers count only for the keys the state's
 * round asked for; anything else the client sends is ignored.
 */
@Injectable()
export class McpInputRounds {
  constructor(
    private readonly sealer: McpRequestStateSealer,
    @Inject(MCP_NONCE_STORE) private readonly nonces: McpNonceStore,
    @Inject(MCP_OPTIONS) private readonly options: McpResolvedOptions,
  ) {}

  async begin(
    method: string,
    raw: Record<string, unknown>,
    params: Record<string, unknown>,
    principal: McpPrincipal | undefined,
  ): Promise<McpInputRound> {
    const state = raw.requestState;
    // Answers without a state prove nothing about what was asked: start afresh.
    if (state === undefined) return new McpInputRound({}, false);
    if (typeof state !== 'string') return new McpInputRound({}, false, 'approval state invalid');
    const payload = await this.sealer.open(state);
    if (
      !payload ||
      payload.b !== bindingOf(method, params) ||
      payload.p !== principalKey(principal)
    ) {
      return new McpInputRound({}, false, 'approval state invalid');
    }
    if (!(payload.exp > Date.now())) return new McpInputRound({}, false, 'approval expired');
    if (!(await this.nonces.consume(payload.n, payload.exp))) {
      return new McpInputRound({}, false, 'approval already used');
    }
    const responses = isJsonObject(raw.inputResponses) ? raw.inputResponses : {};
    const answers: Record<string, unknown> = { ...payload.a };
    for (const key of payload.q) {
      if (Object.hasOwn(responses, key)) answers[key] = responses[key];
    }
    return new McpInputRound(answers, payload.ok === true);
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
    });
    return { resultType: 'input_required', inputRequests: round.inputRequests(), requestState };
  }
}
