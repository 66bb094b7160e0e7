import { Inject, Injectable } from '@nestjs/common';
import { McpInvalidParamsError } from '../../core/errors/protocol.errors.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthorizationSettings } from '../../authorization/authorization-settings.interface.js';
import { jsonRpcResult, type JsonRpcMessage, type RequestId } from '../../core/protocol/jsonrpc.js';
import { toolErrorResult } from '../results/tool-result.normalizer.js';
import { argumentShapeProblem } from '../../core/decoding/argument-shape.js';
import { errorResponse } from './error-response.js';
import { MCP_MODERN_REVISION, type McpModernRevision } from './modern-revision.interface.js';

/**
 * The answer to a request whose params cross a shape bound
 * (`limits.maxArgumentKeys`, depth, array length), found in one bounded pass
 * before the params schema copies them key by key: for `tools/call`, the
 * tool-execution error its arguments deserve (an `isError` result, the same
 * for every tool name, so it reveals none); for anything else, -32602. A
 * member the decoder already cut out (`McpOversizedValue`) names its bound.
 */
@Injectable()
export class McpParamsShapeCheck {
  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings,
    @Inject(MCP_MODERN_REVISION) private readonly modern: McpModernRevision,
  ) {}

  /** The refusal `params` deserve, or undefined when they are within bounds. */
  refusal(
    id: RequestId,
    method: string,
    params: Record<string, unknown>,
    modern: boolean,
  ): JsonRpcMessage | undefined {
    const call = method === 'tools/call';
    const { limits } = this.options;
    // A call's arguments are judged as arguments; everything else in its params (`_meta`) as params.
    const metaProblem = call ? argumentShapeProblem(params._meta, limits) : undefined;
    if (metaProblem) return this.invalidParams(id, method, metaProblem);
    const problem = argumentShapeProblem(call ? params.arguments : params, limits);
    if (!problem) return undefined;
    if (!call) return this.invalidParams(id, method, problem);
    const name = typeof params.name === 'string' ? params.name : '';
    const result = toolErrorResult(`Invalid arguments for tool ${name}: ${problem}`);
    return jsonRpcResult(id, modern ? this.modern.complete(result) : result);
  }

  private invalidParams(id: RequestId, method: string, problem: string): JsonRpcMessage {
    const error = new McpInvalidParamsError(`Invalid params for ${method}: ${problem}`);
    return this.modern.error(errorResponse(id, error, method));
  }
}
