import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { McpInvalidParamsError } from '../errors/protocol.errors.js';
import { McpInputRequiredError } from './input-required.error.js';

/** Why a presented `requestState` was refused (the approval deny's detail). */
export type McpStateProblem =
  'approval state invalid' | 'approval expired' | 'approval already used';

/** One request the client must answer before the server can go on. */
export interface McpInputRequest {
  readonly method: string;
  readonly params: object;
}

/** The answers' shapes, by the method that asked (the only three MRTR allows). */
const ANSWER_SCHEMAS: Record<string, z.ZodType> = {
  'elicitation/create': ElicitResultSchema,
  'sampling/createMessage': CreateMessageResultSchema,
  'roots/list': ListRootsResultSchema,
};

/* Readable keys for handler inputs: `elicit-0`, `sample-1`, ... */
const KEY_PREFIX: Record<string, string> = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sample',
  'roots/list': 'roots',
};

/**
 * The multi round-trip state of one modern request (spec: MRTR): the
 * client's answers in this retry, the answers of earlier rounds (which only
 * a verified `requestState` carries), and what this round asks for. A
 * handler's inputs are keyed by the handler (`ctx.elicit(…, { key })`) or by
 * the order it asks for them, so a handler that runs again asks for the same
 * keys and gets its answers. A handler's input may be answered without a
 * state (the client answers a question the handler asks again anyway); the
 * approval never is: only a state this server sealed proves it asked.
 */
export class McpInputRound {
  private readonly asked = new Map<string, McpInputRequest>();
  /** The answers the handler used this round: the next state carries them. */
  private readonly used = new Map<string, unknown>();
  private sequence = 0;

  constructor(
    /** This retry's `inputResponses` (attacker-controlled: each is shape-checked before use). */
    private readonly responses: Readonly<Record<string, unknown>>,
    /** Answers the verified state carries, and this retry's answers to the keys it asked. */
    private readonly verified: Readonly<Record<string, unknown>>,
    private approvedBefore: boolean,
    /** Set when the client presented a state this server refused. */
    readonly problem?: McpStateProblem,
    /** The operator ask the verified state names (docs/operator-approvals.md). */
    private operatorAskId?: string,
  ) {}

  /** The operator ask this call waits on: the verified state's, or the one this round recorded. */
  get operatorAsk(): string | undefined {
    return this.operatorAskId;
  }

  /**
   * Asks the client to wait for an operator in this round's input-required
   * result; the next state names `askId`, so the retry reads its record.
   */
  awaitOperator(askId: string, request: McpInputRequest): void {
    this.operatorAskId = askId;
    this.ask(OPERATOR_KEY, request);
  }

  /** Whether the caller approved this call, in this round or an earlier one. */
  get approved(): boolean {
    return this.approvedBefore;
  }

  approve(): void {
    this.approvedBefore = true;
  }

  /** Whether this round asked the client for anything: the answer is then input-required. */
  get pending(): boolean {
    return this.asked.size > 0;
  }

  /** The answer to a question only a verified state proves was asked (the approval). */
  verifiedAnswerOf(key: string, method: string): unknown {
    return validAnswer(this.verified[key], method);
  }

  /** Asks the client for `key` in this round's input-required result. */
  ask(key: string, request: McpInputRequest): void {
    this.asked.set(key, request);
  }

  /**
   * What a handler's `ctx.elicit` / `sample` / `listRoots` resolves with: the
   * client's answer when it gave one of the right shape, else it is asked
   * for, and the call rejects so the handler stops here until the retry.
   */
  request(method: string, params: object, key?: string): Promise<unknown> {
    if (key === APPROVAL_KEY || key === OPERATOR_KEY) {
      // Reserved: an answer under it would read as the caller's approval of the call.
      return Promise.reject(new TypeError(`The input key '${key}' is reserved`));
    }
    const name = key ?? inputKeyOf(method, this.sequence++);
    if (this.problem) {
      return Promise.reject(new McpInvalidParamsError('Invalid or expired requestState'));
    }
    const answer =
      validAnswer(this.responses[name], method) ?? validAnswer(this.verified[name], method);
    if (answer !== undefined) {
      this.used.set(name, answer);
      return Promise.resolve(answer);
    }
    this.ask(name, { method, params: modernParams(params) });
    return Promise.reject(new McpInputRequiredError(name));
  }

  /** The input requests of this round's input-required result, by key. */
  inputRequests(): Record<string, McpInputRequest> {
    return Object.fromEntries(this.asked);
  }

  /** The keys asked this round, and every answer so far: what the next state carries. */
  carried(): { asked: string[]; answers: Record<string, unknown> } {
    const answers: Record<string, unknown> = { ...this.verified, ...Object.fromEntries(this.used) };
    return { asked: [...this.asked.keys()], answers };
  }
}

/** The approval's input key (docs/protocol-revisions.md); never answered without a verified state. */
export const APPROVAL_KEY = 'approval';

/** The key of the URL-mode notice that an operator must approve (docs/operator-approvals.md); its answer counts for nothing. */
export const OPERATOR_KEY = 'operator-approval';

/** `answer` when it has the shape of an answer to `method` (attacker-controlled), else undefined. */
export function validAnswer(answer: unknown, method: string): unknown {
  if (answer === undefined || answer === null) return undefined;
  return ANSWER_SCHEMAS[method]?.safeParse(answer).success ? answer : undefined;
}

/** The readable key of the `sequence`th question a handler asks by `method` without naming one. */
export function inputKeyOf(method: string, sequence: number): string {
  return `${KEY_PREFIX[method] ?? 'input'}-${sequence}`;
}

/** The modern era has no elicitation ids: a URL-mode question is judged from the answer itself. */
export function modernParams(params: object): object {
  if (!('elicitationId' in params)) return params;
  const { elicitationId: _dropped, ...rest } = params as Record<string, unknown>;
  return rest;
}
