import type { McpOperatorAsk, McpOperatorAskRecord } from '../operator/operator-ask.interface.js';

/** An ask as the console shows it (and sends it to the page): nothing more than it displays. */
export interface ConsoleAskView {
  readonly id: string;
  readonly tool: string;
  readonly prompt: string;
  /** The caller's subject, or its quota key when anonymous. */
  readonly caller: string;
  readonly preview: string;
  /** The policies that asked, comma-separated; empty when a closure asked. */
  readonly policies: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** A decision as the console shows it. */
export interface ConsoleDecisionView {
  readonly id: string;
  readonly tool: string;
  readonly caller: string;
  readonly approved: boolean;
  readonly operator: string;
  readonly reason?: string;
  readonly policies: string;
  readonly decidedAt: number;
}

export function askView(ask: McpOperatorAsk): ConsoleAskView {
  return {
    id: ask.id,
    tool: ask.tool,
    prompt: ask.prompt,
    caller: callerOf(ask),
    preview: ask.preview,
    policies: ask.policies?.join(', ') ?? '',
    createdAt: ask.createdAt,
    expiresAt: ask.expiresAt,
  };
}

/** The record's decision; undefined while it is pending. */
export function decisionView(record: McpOperatorAskRecord): ConsoleDecisionView | undefined {
  const decision = record.decision;
  if (!decision) return undefined;
  return {
    id: record.id,
    tool: record.tool,
    caller: callerOf(record),
    approved: decision.approved,
    operator: decision.operator,
    reason: decision.reason,
    policies: record.policies?.join(', ') ?? '',
    decidedAt: decision.decidedAt,
  };
}

function callerOf(ask: McpOperatorAsk): string {
  return ask.caller.subject ?? ask.caller.key;
}
