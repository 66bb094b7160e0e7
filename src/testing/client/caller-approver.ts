import type { ElicitResult } from '../../mcp/core/protocol/mcp-types.js';
import type {
  McpApprovalAnswer,
  McpApprovalHandler,
  McpApprovalRequest,
} from './mcp-test-client.options.js';

/** Silence is never consent: with no handler and nothing queued, an approval is declined. */
const DECLINE_ALL: McpApprovalHandler = () => 'decline';

interface OneShot {
  readonly answer: McpApprovalAnswer;
  readonly asked: (request: McpApprovalRequest) => void;
}

/**
 * Where one client's approvals are decided: one-shot answers first (in the
 * order they were queued), then the standing handler. It records every
 * approval it was asked for.
 */
export class McpCallerApprover {
  private handler: McpApprovalHandler = DECLINE_ALL;
  private readonly queue: OneShot[] = [];
  readonly asked: McpApprovalRequest[] = [];

  /** Replaces the standing handler. */
  setHandler(handler: McpApprovalHandler): void {
    this.handler = handler;
  }

  /** Answers the next approval with `answer`; resolves with that approval once answered. */
  queueNext(answer: McpApprovalAnswer): Promise<McpApprovalRequest> {
    return new Promise((asked) => this.queue.push({ answer, asked }));
  }

  /** Decides `request`, as the wire answer. A handler that throws rejects. */
  async decide(request: McpApprovalRequest): Promise<ElicitResult> {
    this.asked.push(request);
    const oneShot = this.queue.shift();
    if (oneShot) {
      oneShot.asked(request);
      return toElicitResult(oneShot.answer);
    }
    return toElicitResult(await this.handler(request));
  }
}

/** The wire shape of an answer (the server approves only `accept` with `approve: true`). */
export function toElicitResult(answer: McpApprovalAnswer): ElicitResult {
  switch (answer) {
    case 'approve':
      return { action: 'accept', content: { approve: true } };
    case 'decline':
      return { action: 'decline' };
    case 'cancel':
      return { action: 'cancel' };
    default:
      return answer;
  }
}
