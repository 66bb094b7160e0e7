import type { ArgumentsHost, ContextType, ExecutionContext, Type } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import { MCP_CONTEXT_TYPE } from '../../core/mcp.constants.js';
import type { McpToolContext } from '../interfaces/mcp-context.interface.js';

type HttpArgumentsHost = ReturnType<ArgumentsHost['switchToHttp']>;
type RpcArgumentsHost = ReturnType<ArgumentsHost['switchToRpc']>;
type WsArgumentsHost = ReturnType<ArgumentsHost['switchToWs']>;
/* Nest's own type for a handler reference (any function). */
type HandlerRef = ReturnType<ExecutionContext['getHandler']>;

/** What every MCP context object carries, whether a handler's context or a protocol request. */
interface McpContextLike {
  readonly principal?: McpPrincipal;
  readonly httpRequest?: IncomingMessage;
}

/**
 * The `ExecutionContext` (and `ArgumentsHost`) that guards, interceptors and
 * exception filters see around an MCP handler; its type is `'mcp'`. The
 * arguments are the handler's own: `(args, ctx)` for a tool or a prompt,
 * `(uri, variables, ctx)` for a resource. The MCP context is always the last.
 *
 * `switchToHttp().getRequest()` is the HTTP request that carried the call
 * (undefined on stdio), so a guard written for HTTP controllers sees the
 * caller's headers. There is no response object: the transport owns it.
 *
 * @publicApi
 * @example
 * canActivate(context: ExecutionContext) {
 *   const mcp = McpExecutionContext.create(context);
 *   return mcp.getPrincipal()?.scopes.includes('notes:write') ?? false;
 * }
 */
export class McpExecutionContext implements ExecutionContext {
  private contextType: string = MCP_CONTEXT_TYPE;

  constructor(
    private readonly args: unknown[],
    private readonly classRef: Type | null = null,
    private readonly handler: HandlerRef | null = null,
  ) {}

  /** Views any `ExecutionContext` or `ArgumentsHost` of an MCP handler as an MCP context. */
  static create(context: ArgumentsHost): McpExecutionContext {
    if (context instanceof McpExecutionContext) return context;
    const host = context as Partial<ExecutionContext>;
    const created = new McpExecutionContext(
      context.getArgs(),
      host.getClass?.() ?? null,
      host.getHandler?.() ?? null,
    );
    created.setType(context.getType());
    return created;
  }

  /** Sets the context type (Nest's consumers call it with `'mcp'`). */
  setType(type: string | undefined): void {
    if (type) this.contextType = type;
  }

  getType<TContext extends string = ContextType>(): TContext {
    return this.contextType as TContext;
  }

  getClass<T = unknown>(): Type<T> {
    return this.classRef as Type<T>;
  }

  getHandler(): HandlerRef {
    return this.handler as HandlerRef;
  }

  getArgs<T extends unknown[] = unknown[]>(): T {
    return this.args as T;
  }

  getArgByIndex<T = unknown>(index: number): T {
    return this.args[index] as T;
  }

  /** The handler's MCP context (`McpToolContext`): its last argument. */
  getContext<T = McpToolContext>(): T {
    return this.args[this.args.length - 1] as T;
  }

  /** The caller, when the transport authenticated one. */
  getPrincipal(): McpPrincipal | undefined {
    return this.getContext<McpContextLike | undefined>()?.principal;
  }

  /** The HTTP request that carried the call (HTTP transports only). */
  getHttpRequest(): IncomingMessage | undefined {
    return this.getContext<McpContextLike | undefined>()?.httpRequest;
  }

  switchToHttp(): HttpArgumentsHost {
    return {
      getRequest: <T>() => this.getHttpRequest() as T,
      getResponse: <T>() => undefined as T,
      getNext: <T>() => undefined as T,
    };
  }

  /** Data: the handler's first argument (a tool's arguments); context: the MCP context. */
  switchToRpc(): RpcArgumentsHost {
    return {
      getData: <T>() => this.args[0] as T,
      getContext: <T>() => this.getContext<T>(),
    };
  }

  /** Client: the MCP context; data: the handler's first argument. */
  switchToWs(): WsArgumentsHost {
    return {
      getClient: <T>() => this.getContext<T>(),
      getData: <T>() => this.args[0] as T,
      getPattern: () => (this.handler?.name as string | undefined) ?? '',
    };
  }
}
