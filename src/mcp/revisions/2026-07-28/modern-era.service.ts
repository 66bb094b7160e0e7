import { Inject, Injectable } from '@nestjs/common';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import { McpAuthorizationService } from '../../authorization/mcp-authorization.service.js';
import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthenticationSettings } from '../../authentication/authentication-settings.interface.js';
import { JsonRpcErrorCode } from '../../core/protocol/error-codes.constants.js';
import type { JsonRpcMessage } from '../../core/protocol/jsonrpc.js';
import type { McpRequest } from '../../engine/dispatch/mcp-request.interface.js';
import { CACHEABLE_METHODS, INPUT_REQUIRED_METHODS } from '../../core/protocol/era.constants.js';
import type { McpInputRound } from '../../core/multi-round-trip/input-round.js';
import { McpInputRounds } from './multi-round-trip/input-rounds.service.js';
import { completeResult, taskResult, type McpCacheHint } from './modern-result.js';
import { McpCreatedTask } from '../../engine/tools/created-task.js';

/**
 * What the modern era (2026-07-28) adds around the method handlers, which
 * serve both eras unchanged: which methods exist in it, the multi round-trip
 * state of the methods that may ask the client for input, and the shape of
 * its results and errors. The dispatcher calls it for modern requests only.
 */
@Injectable()
export class McpModernEra {
  private readonly serverInfo: object;

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpAuthenticationSettings,
    private readonly rounds: McpInputRounds,
    private readonly authorization: McpAuthorizationService,
  ) {
    this.serverInfo = Object.freeze({ name: options.name, version: options.version });
  }

  /**
   * The round of a method that may answer input-required; undefined for the
   * others. `caller` is the caller's quota key (see `McpInputRounds.begin`).
   */
  round(
    method: string,
    raw: Record<string, unknown>,
    params: Record<string, unknown>,
    principal: McpPrincipal | undefined,
    caller?: string,
  ): Promise<McpInputRound> | undefined {
    if (!INPUT_REQUIRED_METHODS.has(method)) return undefined;
    return this.rounds.begin(method, raw, params, principal, caller);
  }

  /**
   * The result a modern request answers with: input-required when its round
   * asked the client for anything (whatever the handler made of that), else
   * the handler's result, complete.
   */
  async result(request: McpRequest, result: object): Promise<object> {
    const round = request.input;
    if (round?.pending) {
      return this.rounds.inputRequired(round, request.method, request.params, request.principal);
    }
    // A call that became a task (SEP-2663): the task's fields, `resultType: "task"`.
    if (result instanceof McpCreatedTask) return taskResult(result.task, this.serverInfo);
    return completeResult(result, this.serverInfo, this.cacheHint(request));
  }

  /** A complete result of a method that is not cacheable, answered before any handler ran. */
  complete(result: object): object {
    return completeResult(result, this.serverInfo, undefined);
  }

  /** An input-required result instead of the error, when the round asked; else undefined. */
  async inputRequiredInstead(request: McpRequest): Promise<object | undefined> {
    const round = request.input;
    if (!round?.pending) return undefined;
    return this.rounds.inputRequired(round, request.method, request.params, request.principal);
  }

  /** A modern error: "resource not found" is -32602 in this era (-32002 is the handshake era's). */
  error(response: JsonRpcMessage): JsonRpcMessage {
    const error = response.error as { code?: number } | undefined;
    if (error?.code !== JsonRpcErrorCode.ResourceNotFound) return response;
    return { ...response, error: { ...error, code: JsonRpcErrorCode.InvalidParams } };
  }

  /**
   * Cacheable results are `private` whenever they may depend on the caller:
   * an authenticated principal, or a seam that decides per caller.
   */
  private cacheHint(request: McpRequest): McpCacheHint | undefined {
    if (!CACHEABLE_METHODS.has(request.method)) return undefined;
    const perCaller =
      request.principal !== undefined ||
      this.authorization.readAuthorizationConfigured() ||
      this.authorization.hasToolAuthorizer();
    return { ttlMs: this.options.cacheTtlMs, cacheScope: perCaller ? 'private' : 'public' };
  }
}
