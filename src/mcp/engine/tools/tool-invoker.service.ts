import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthorizationSettings } from '../../authorization/authorization-settings.interface.js';
import { ForbiddenException, HttpException, Inject, Injectable, Logger } from '@nestjs/common';
import { withTimeout } from '../../core/common/with-timeout.js';
import { toolDenial } from '../../authorization/tool-denial.js';
import { urlElicitationRefusal } from '../elicitation/url-elicitation-required.refusal.js';
import { protocolErrorOf } from '../../core/errors/sdk-errors.js';
import { isPromiseLike, type MaybePromise } from '../../core/common/maybe-promise.js';
import type { InputValidation } from '../../definitions/schema/input-validator.js';
import type { CallToolResult } from '../../core/protocol/mcp-types.js';
import type { McpToolEntry } from '../../definitions/interfaces/registry-entry.interface.js';
import { McpRequestContext } from '../context/request-context.js';
import { McpCallerCredentials } from '../context/caller-credentials.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { normalizeToolResult, toolErrorResult } from '../results/tool-result.normalizer.js';
import { McpOutboundRequestError } from '../outbound/outbound-request.errors.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { McpInputRequiredError } from '../../core/multi-round-trip/input-required.error.js';
import { jsonSizeProblem } from '../results/result-size.js';
import { requestLogFields } from '../../core/common/log-fields.js';
import { McpAuditService } from '../../authorization/audit/mcp-audit.service.js';
import type { McpAuditOutcome } from '../../authorization/audit/mcp-audit-event.interface.js';

/** How a run ended, filled in as it goes (the audit's outcome; none: it never started). */
interface Ended {
  outcome: McpAuditOutcome | undefined;
  /** Said beside the outcome: `input_required`, a 2026-07-28 round that asked for input. */
  detail?: string;
}

/** The `detail` of the outcome of a round that asked its caller for input (2026-07-28). */
const INPUT_REQUIRED = 'input_required';

/** A call's arguments once checked: the value the tool gets, or the result that refuses them. */
export type McpToolArguments =
  { ok: true; value: unknown } | { ok: false; refusal: CallToolResult };

/**
 * Runs a tool that has passed its seam: validates the arguments against its
 * input contract, calls it with a request context, shapes the result and
 * checks it against the output schema. Every failure is an `isError` result
 * (spec: tool execution errors are results, not protocol errors), except a
 * protocol error the tool threw on purpose (`McpWardenError`, or an official
 * SDK's `McpError` / `ProtocolError`), which keeps its JSON-RPC code.
 */
@Injectable()
export class McpToolInvoker {
  private readonly logger = new Logger('McpTools');

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings,
    private readonly audit: McpAuditService,
    private readonly credentials: McpCallerCredentials,
  ) {}

  /**
   * The arguments as the tool's input contract parsed them (a DTO's instance,
   * say), or the `isError` result that refuses them. Synchronous where the
   * validator is.
   */
  validate(entry: McpToolEntry, args: Record<string, unknown>): MaybePromise<McpToolArguments> {
    const validation = entry.input.validate(args);
    return isPromiseLike(validation)
      ? validation.then((input) => checkedArguments(entry, input))
      : checkedArguments(entry, validation);
  }

  /**
   * Runs the tool with arguments `validate` accepted (its `value`), and records how it ended
   * (docs/audit.md): the outcome event links to the call's decision.
   */
  async execute(entry: McpToolEntry, input: unknown, request: McpRequest): Promise<CallToolResult> {
    // Cancelled before its tool starts (while its approval, or under audit.failClosed its
    // record, was awaited): the tool never starts, and its refusal is recorded, not an outcome.
    if (request.cancelled) {
      this.audit.refused(request, entry.tool.name, 'cancelled');
      return toolErrorResult(`Tool ${entry.tool.name} was cancelled`);
    }
    // Timed only when an outcome will be recorded: this runs on every call.
    const started = this.audit.recording ? performance.now() : -1;
    const ended: Ended = { outcome: 'threw' };
    // One async function per run: the outcome is recorded in its own finally, not a wrapper's.
    try {
      const name = entry.tool.name;
      const context = new McpRequestContext(request, this.credentials);
      let result: CallToolResult;
      try {
        // A synchronous handler needs no timer; an async one is bounded by limits.toolTimeoutMs.
        const produced = entry.invoke(input, context);
        const value = isPromiseLike(produced)
          ? await this.bounded(produced, request, name, ended)
          : produced;
        result = normalizeToolResult(value);
      } catch (error) {
        // The tool's own guards, interceptors or pipes refused it, or it was cancelled while
        // they ran: its body never ran, so its story ends in a refusal, as a seam's would, not
        // in an outcome.
        if (!context.handlerStarted && ended.outcome !== 'timeout') {
          ended.outcome = undefined;
          if (request.cancelled) {
            this.audit.refused(request, name, 'cancelled');
            return toolErrorResult(`Tool ${name} was cancelled`);
          }
          this.audit.refused(
            request,
            name,
            error instanceof ForbiddenException ? 'forbidden' : 'enhancer_refused',
          );
          return this.failure(entry, error, request);
        }
        // A cancelled call gets no response; its abort is not a failure worth logging.
        if (request.cancelled && ended.outcome !== 'timeout') {
          ended.outcome = 'cancelled';
          return toolErrorResult(`Tool ${name} was cancelled`);
        }
        // A McpToolError is the documented way to answer with an error result; anything else threw.
        if (error instanceof McpToolError && ended.outcome !== 'timeout') ended.outcome = 'isError';
        // A round of the 2026-07-28 era that ends asking its caller for input: no failure, and
        // the retry that carries the answer has an outcome of its own.
        if (error instanceof McpInputRequiredError) ended.detail = INPUT_REQUIRED;
        return this.failure(entry, error, request);
      } finally {
        context.end();
      }
      // The result stands once it passes its checks; a check that throws (a getter, a toJSON,
      // an asynchronous output schema that rejects) is the tool's failure, as a throw would be.
      try {
        const maybe = this.checked(entry, result, request, ended);
        const checked = isPromiseLike(maybe) ? await maybe : maybe;
        if (checked !== result) return checked;
      } catch (error) {
        ended.outcome = 'threw';
        return this.failure(entry, error, request);
      }
      ended.outcome = result.isError ? 'isError' : 'ok';
      return result;
    } finally {
      // A 2026-07-28 round that asked its caller for input answers input-required, whatever the
      // tool made of the question (it may catch it and return): its outcome says so.
      if (request.input?.pending && ended.outcome !== undefined && ended.outcome !== 'timeout') {
        ended.outcome = 'isError';
        ended.detail = INPUT_REQUIRED;
      }
      if (started >= 0 && ended.outcome !== undefined) {
        const duration = performance.now() - started;
        this.audit.outcome(request, entry.tool.name, ended.outcome, duration, ended.detail);
      }
    }
  }

  /*
   * The result, or the isError result that replaces it: too large for limits.maxResultBytes,
   * not JSON, or failing the tool's output schema (each sets the outcome `isError`).
   * Synchronous unless the output schema is: this runs on every call.
   */
  private checked(
    entry: McpToolEntry,
    result: CallToolResult,
    request: McpRequest,
    ended: Ended,
  ): MaybePromise<CallToolResult> {
    const name = entry.tool.name;
    const { maxResultBytes } = this.options.limits;
    const problem = jsonSizeProblem(result, maxResultBytes);
    if (problem === 'too-large') {
      this.logger.warn(
        `Tool ${name} returned more than limits.maxResultBytes (${maxResultBytes})`,
        requestLogFields(request),
      );
      ended.outcome = 'isError';
      return toolErrorResult(`Tool ${name} produced a result larger than ${maxResultBytes} bytes`);
    }
    if (problem === 'not-json') {
      this.logger.error(
        `Tool ${name} returned a value JSON cannot carry (a BigInt, or a toJSON that throws)`,
        requestLogFields(request),
      );
      ended.outcome = 'isError';
      return toolErrorResult(`Tool ${name} produced a result that is not JSON`);
    }
    if (!entry.output || result.isError) return result;
    const checked = entry.output(result.structuredContent);
    // A Standard Schema may validate asynchronously; a JSON Schema check never does.
    const judged = (outputProblem: string | undefined) => {
      if (outputProblem === undefined) return result;
      this.logger.error(
        `Tool ${name} returned output that fails its outputSchema: ${outputProblem}`,
        requestLogFields(request),
      );
      ended.outcome = 'isError';
      return toolErrorResult(`Tool ${name} produced invalid output`);
    };
    return isPromiseLike(checked) ? Promise.resolve(checked).then(judged) : judged(checked);
  }

  /* Races the handler with the tool timeout; on timeout its signal aborts and the call still answers. */
  private bounded(
    work: PromiseLike<unknown>,
    request: McpRequest,
    name: string,
    ended: Ended,
  ): Promise<unknown> {
    const timeoutMs = request.runTimeoutMs ?? this.options.limits.toolTimeoutMs;
    return withTimeout(work, timeoutMs, () => {
      ended.outcome = 'timeout';
      request.expire('tool timed out');
      throw new McpToolError(`Tool ${name} timed out`);
    });
  }

  private failure(entry: McpToolEntry, error: unknown, request: McpRequest): CallToolResult {
    const name = entry.tool.name;
    if (error instanceof McpToolError) return toolErrorResult(error.message);
    // A server→client request the tool made ended without an answer (timeout, closed, ...).
    if (error instanceof McpOutboundRequestError)
      return toolErrorResult(`Tool ${name}: ${error.message}`);
    // A protocol error thrown on purpose keeps its code (the dispatcher answers it as one).
    const protocolError = protocolErrorOf(error);
    // A -32042 only reaches a client that declared URL-mode elicitation; any other is told why.
    const refused = protocolError && urlElicitationRefusal(protocolError, request);
    if (refused) return toolErrorResult(refused);
    if (protocolError) throw protocolError;
    // A user's own guard on the tool method refused (a guard returning false throws this).
    if (error instanceof ForbiddenException) {
      return toolDenial(name, 'deny', 'forbidden', entry.tool.outputSchema === undefined);
    }
    // Nest's HTTP exceptions carry a message written for the caller.
    if (error instanceof HttpException) return toolErrorResult(error.message);
    this.logger.error(
      `Tool ${name} failed: ${(error as Error)?.stack ?? String(error)}`,
      requestLogFields(request),
    );
    return toolErrorResult(`Tool ${name} failed`);
  }
}

function checkedArguments(entry: McpToolEntry, input: InputValidation): McpToolArguments {
  if (input.ok) return input;
  const message = `Invalid arguments for tool ${entry.tool.name}: ${input.message}`;
  return { ok: false, refusal: toolErrorResult(message) };
}
