import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
} from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { McpInvalidParamsError } from '../../errors/protocol.errors.js';
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
 * answers the client has given (in this retry, and in earlier rounds as the
 * verified `requestState` carries them), and what this round asks for.
 * A handler's inputs are keyed by the order it asks for them, so a handler
 * that runs again asks for the same keys and gets its earlier answers.
 */
export class McpInputRound {
  private readonly asked = new Map<string, McpInputRequest>();
  private sequence = 0;

  constructor(
    private readonly answers: Readonly<Record<string, unknown>>,
    private approvedBefore: boolean,
    /** Set when the client presented a state this server refused. */
    readonly problem?: McpStateProblem,
  ) {}

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

  /** The answer the client gave for `key`, when it has the shape its method's result must have. */
  answerOf(key: string, method: string): unknown {
    const answer = this.answers[key];
    if (answer === undefined) return undefined;
    return ANSWER_SCHEMAS[method]?.safeParse(answer).success ? answer : undefined;
  }

  /** Asks the client for `key` in this round's input-required result. */
  ask(key: string, request: McpInputRequest): void {
    this.asked.set(key, request);
  }

  /**
   * What a handler's `ctx.elicit` / `sample` / `listRoots` resolves with: the
   * client's answer when it gave one, else it is asked for, and the call
   * rejects so the handler stops here until the retry.
   */
  request(method: string, params: object): Promise<unknown> {
    const key = `${KEY_PREFIX[method] ?? 'input'}-${this.sequence++}`;
    if (this.problem) {
      return Promise.reject(new McpInvalidParamsError('Invalid or expired requestState'));
    }
    const answer = this.answerOf(key, method);
    if (answer !== undefined) return Promise.resolve(answer);
    this.ask(key, { method, params });
    return Promise.reject(new McpInputRequiredError(key));
  }

  /** The input requests of this round's input-required result, by key. */
  inputRequests(): Record<string, McpInputRequest> {
    return Object.fromEntries(this.asked);
  }

  /** The keys asked this round, and every answer so far: what the next state carries. */
  carried(): { asked: string[]; answers: Record<string, unknown> } {
    return { asked: [...this.asked.keys()], answers: { ...this.answers } };
  }
}
