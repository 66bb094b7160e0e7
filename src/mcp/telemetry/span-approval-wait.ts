import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { McpPrincipal } from '../authentication/principal.interface.js';
import type { McpApprovalWait } from '../approvals/approval-wait.js';
import { carryingContext } from './trace-context.js';
import { ATTR } from './telemetry.constants.js';

/*
 * An approval that ended without the user's answer failed as an operation
 * (the user's "no" did not: it is an answer). Low-cardinality error types.
 */
const FAILURE_TYPE: Record<string, string> = {
  'elicitation timed out': 'timeout',
  'elicitation failed': 'elicitation_failed',
  'connection closed': 'connection_closed',
  'call cancelled': 'cancelled',
};

/** The child span that covers one wait, ended with its outcome. */
export class SpanApprovalWait implements McpApprovalWait {
  private ended = false;

  constructor(
    private readonly span: Span,
    private readonly done: () => void,
  ) {}

  /** Opens the child span of `parent` (the call's) that covers one wait for `tool`. */
  static start(
    tracer: Tracer,
    parent: Span | undefined,
    tool: string,
    principal: McpPrincipal | undefined,
    done: () => void,
  ): SpanApprovalWait {
    const span = tracer.startSpan(
      'elicitation/create',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR.methodName]: 'elicitation/create',
          [ATTR.toolName]: tool,
          ...(principal ? { [ATTR.principal]: principal.subject } : {}),
        },
      },
      parent ? trace.setSpan(context.active(), parent) : context.active(),
    );
    return new SpanApprovalWait(span, done);
  }

  carrying(params: object): object {
    return this.span.isRecording() ? carryingContext(params, this.span, context.active()) : params;
  }

  end(approved: boolean, detail: string): void {
    if (this.ended) return;
    this.ended = true;
    this.done();
    this.span.setAttribute(ATTR.approvalOutcome, approved ? 'approved' : detail);
    this.span.setAttribute(ATTR.decision, approved ? 'allow' : 'deny');
    const failure = approved ? undefined : FAILURE_TYPE[detail];
    if (failure) {
      this.span.setAttribute(ATTR.errorType, failure);
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: detail });
    }
    this.span.end();
  }
}
