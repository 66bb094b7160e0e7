import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthorizationSettings } from '../../authorization/authorization-settings.interface.js';
import { Inject, Injectable } from '@nestjs/common';
import { PaginatedRequestParamsSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { hasScopes, McpInsufficientScopeError } from '../../authentication/scopes.js';
import { contextOf } from '../../authorization/authorizer-context.js';
import { McpAuthorizationService } from '../../authorization/mcp-authorization.service.js';
import { ReadSeam, ToolSeam } from '../../authorization/seam.decorators.js';
import { toolDenial } from '../../authorization/tool-denial.js';
import { McpInvalidParamsError } from '../../core/errors/protocol.errors.js';
import { nextCursorOf, paginate } from '../../core/protocol/pagination.js';
import type { CallToolResult } from '../../core/protocol/mcp-types.js';
import type { McpToolEntry } from '../../definitions/interfaces/registry-entry.interface.js';
import { McpRegistry } from '../../definitions/mcp-registry.service.js';
import { McpParkedCall } from '../dispatch/parked-call.js';
import { MCP_APPROVAL_GATE, type McpApprovalGate } from '../tools/approval-gate.interface.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { McpToolInvoker, type McpToolArguments } from '../tools/tool-invoker.service.js';
import { McpAuditService } from '../../authorization/audit/mcp-audit.service.js';
import type { AuthorizerDecision } from '../../authorization/authorizer.interface.js';
import { isPromiseLike, type MaybePromise } from '../../core/common/maybe-promise.js';
import {
  MCP_TOOL_TASKS,
  type McpToolOutcome,
  type McpToolTasks,
} from '../tools/tool-tasks.interface.js';
import { toolErrorResult } from '../results/tool-result.normalizer.js';
import { callToolParams, type CallToolParams } from './call-tool-params.js';

type ListParams = z.infer<typeof PaginatedRequestParamsSchema>;
type AskDecision = Extract<AuthorizerDecision, { kind: 'ask' }>;

/** Detail of a deny when the handler was reached without the tool seam's verdict. */
const SEAM_NOT_APPLIED = 'tool_seam_not_applied';

/**
 * `tools/list` (read seam, then per-tool visibility) and `tools/call`, which
 * this handler owns from the seam's verdict to the result.
 */
@Injectable()
export class McpToolsHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly authorization: McpAuthorizationService,
    @Inject(MCP_APPROVAL_GATE) private readonly approvals: McpApprovalGate,
    private readonly invoker: McpToolInvoker,
    @Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings,
    @Inject(MCP_TOOL_TASKS) private readonly tasks: McpToolTasks,
    private readonly audit: McpAuditService,
  ) {}

  @McpMethod('tools/list', PaginatedRequestParamsSchema)
  @ReadSeam()
  async list(request: McpRequest<ListParams>): Promise<object> {
    const visible = await this.visibleTools(request);
    const page = paginate(visible, request.params?.cursor, this.options.pageSize);
    return { tools: page.items.map((entry) => entry.tool), ...nextCursorOf(page) };
  }

  /**
   * One call, top to bottom: the seam decided (see `ToolSeamGuard`); a deny
   * answers at once; an unknown tool is reported only now, so a denied caller
   * cannot probe for tools; then the tool's scopes are checked; an allow
   * runs (validating its arguments first, as every run does); an ask
   * validates the arguments before anyone is asked (`ask`).
   */
  @McpMethod('tools/call', callToolParams)
  @ToolSeam()
  call(request: McpRequest<CallToolParams>): MaybePromise<McpToolOutcome | McpParkedCall> {
    const { name } = request.params;
    const verdict = request.toolSeam;
    const decision = verdict?.decision ?? { kind: 'deny', reason: SEAM_NOT_APPLIED };
    if (decision.kind === 'deny') return this.seamDenial(request, verdict?.entry, decision.reason);
    const entry = verdict?.entry;
    if (!entry) {
      this.audit.refused(request, name, 'unknown_tool');
      throw new McpInvalidParamsError(`Unknown tool: ${name}`);
    }
    // The caller may call it (allow or ask), so it may see its output schema: respect it.
    const structured = entry.tool.outputSchema === undefined;
    // Before any approval: a call the caller's scopes cannot cover is not worth asking about.
    if (!hasScopes(entry.scopes, request.principal)) {
      this.audit.refused(request, name, 'insufficient_scope');
      // Over HTTP the transport turns this into the 403 step-up challenge.
      if (request.transport === 'http') throw new McpInsufficientScopeError(name, entry.scopes);
      return toolDenial(name, 'deny', 'insufficient_scope', structured);
    }
    // A tool that may run as a task asks the tasks extension how (-32021 when it must and cannot).
    const plan = entry.task === 'never' ? 'now' : this.planOf(request, entry);
    if (plan === 'task-only') {
      this.audit.refused(request, name, 'task_only');
      return toolErrorResult(`Tool ${name} runs only as a task (protocol 2026-07-28 and later)`);
    }
    if (decision.kind === 'allow') {
      return plan === 'task' ? this.runAsTask(entry, request) : this.run(entry, request);
    }
    // An ask lets the caller call the tool, so it may learn why its arguments fail; and nobody
    // is asked about a call that could not run. A deny answered above, before any validation.
    const checked = this.invoker.validate(entry, request.params.arguments ?? {});
    return isPromiseLike(checked)
      ? checked.then((input) => this.ask(entry, request, decision, input, plan === 'task'))
      : this.ask(entry, request, decision, checked, plan === 'task');
  }

  /**
   * An ask for a call whose arguments were checked: refused as they are, or handed to the
   * approval gate (`approvals/`), which asks the approver and runs the call on approval.
   */
  private ask(
    entry: McpToolEntry,
    request: McpRequest<CallToolParams>,
    decision: AskDecision,
    input: McpToolArguments,
    asTask: boolean,
  ): MaybePromise<McpToolOutcome | McpParkedCall> {
    if (!input.ok) return this.refusedArguments(request, input.refusal);
    const execute = (run: McpRequest) => this.invoker.execute(entry, input.value, run);
    if (asTask && decision.approver === 'operator') {
      // An operator is not the caller: the task exists at once and waits for the decision.
      const waitForOperator = (run: McpRequest) =>
        settledOf(
          this.approvals.decide(run as typeof request, entry, decision, () => execute(run)),
        );
      return this.tasks.start(request, entry, waitForOperator, { immediate: false });
    }
    // The caller's approval round ends before the task exists: an approved call starts it.
    return this.approvals.decide(request, entry, decision, () =>
      asTask ? this.tasks.start(request, entry, execute) : execute(request),
    );
  }

  /**
   * A seam deny. It leaves out `structuredContent` only for a tool with an
   * output schema the caller can see (and so validate against); for any
   * other, hidden or unknown, it is the same as for a tool that does not
   * exist, so a denied caller learns nothing from its shape.
   */
  private async seamDenial(
    request: McpRequest<CallToolParams>,
    entry: McpToolEntry | undefined,
    reason: string,
  ): Promise<CallToolResult> {
    const { name } = request.params;
    if (entry?.tool.outputSchema === undefined) return toolDenial(name, 'deny', reason);
    const visible =
      hasScopes(entry.scopes, request.principal) &&
      (await this.authorization.isToolVisible(name, entry.sensitive, contextOf(request)));
    return toolDenial(name, 'deny', reason, !visible);
  }

  /* How the tasks extension runs the call; a task-only tool it cannot run is recorded refused. */
  private planOf(request: McpRequest<CallToolParams>, entry: McpToolEntry) {
    try {
      return this.tasks.plan(request, entry);
    } catch (error) {
      this.audit.refused(request, request.params.name, 'task_only');
      throw error;
    }
  }

  /* A call whose arguments fail the tool's contract: recorded, then answered with why. */
  private refusedArguments(request: McpRequest<CallToolParams>, refusal: CallToolResult) {
    this.audit.refused(request, request.params.name, 'invalid_arguments');
    return refusal;
  }

  /** The tools this caller may call (see `McpAuthorizationService.isToolVisible`). */
  async visibleTools(request: McpRequest): Promise<McpToolEntry[]> {
    const context = contextOf(request);
    const entries = this.registry
      .tools()
      .filter((entry) => hasScopes(entry.scopes, request.principal));
    const visible = await Promise.all(
      entries.map((entry) =>
        this.authorization.isToolVisible(entry.tool.name, entry.sensitive, context),
      ),
    );
    return entries.filter((_, index) => visible[index]);
  }

  private async run(
    entry: McpToolEntry,
    request: McpRequest<CallToolParams>,
  ): Promise<CallToolResult> {
    const validation = this.invoker.validate(entry, request.params.arguments ?? {});
    const checked = isPromiseLike(validation) ? await validation : validation;
    if (!checked.ok) return this.refusedArguments(request, checked.refusal);
    return this.invoker.execute(entry, checked.value, request);
  }

  /* Arguments that fail their contract are refused at once: no task is made for them. */
  private async runAsTask(
    entry: McpToolEntry,
    request: McpRequest<CallToolParams>,
  ): Promise<McpToolOutcome> {
    const checked = await this.invoker.validate(entry, request.params.arguments ?? {});
    if (!checked.ok) return this.refusedArguments(request, checked.refusal);
    return this.tasks.start(request, entry, (run) =>
      this.invoker.execute(entry, checked.value, run),
    );
  }
}

/* The result of what the approval gate answered: at once, or once its parked call settles. */
function settledOf(answer: CallToolResult | McpParkedCall): Promise<CallToolResult> {
  return answer instanceof McpParkedCall
    ? (answer.result as Promise<CallToolResult>)
    : Promise.resolve(answer);
}
