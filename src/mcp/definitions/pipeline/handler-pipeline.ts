import type { ArgumentMetadata, Type } from '@nestjs/common';
import { InterceptorsConsumer, PipesConsumer } from './nest-context-creators.js';
import { isObservable, lastValueFrom } from 'rxjs';
import { isPromiseLike } from '../../core/common/maybe-promise.js';
import { MCP_CONTEXT_TYPE } from '../../core/mcp.constants.js';
import { McpExecutionContext } from './mcp-execution-context.js';
import type {
  McpEnhancers,
  McpExceptionFilter,
  McpHandlerMethod,
} from './nest-enhancers.resolver.js';
import { runGuards, settle } from './run-guards.js';

/** A handler called with its arguments as an array (the MCP context last). */
export type McpInvocation = (args: unknown[]) => unknown;

/**
 * What the MCP context (a handler's last argument) is told of a handler with enhancers: `false`
 * as its guards, interceptors and pipes begin, `true` as the method's own body starts. The
 * engine's request context keeps it, so that a call its enhancers refused is recorded as refused
 * rather than as an outcome of its tool (docs/audit.md). A handler without enhancers (one
 * registered through `McpRegistry`, say) is never told: its body is all there is.
 */
export const METHOD_STARTED = Symbol('mcp.methodStarted');

interface StartProbe {
  [METHOD_STARTED]?(started: boolean): void;
}

/* Tells the context, if it listens, whether the body started. */
function tell(args: unknown[], started: boolean): void {
  (args[args.length - 1] as StartProbe | undefined)?.[METHOD_STARTED]?.(started);
}

/** Which argument the pipes transform, and what they are told about it. */
export interface McpPipedArgument {
  readonly index: number;
  readonly metadata: ArgumentMetadata;
}

/* Nest's interceptor chain, seeing an MCP execution context instead of an HTTP-shaped one. */
class McpInterceptorsConsumer extends InterceptorsConsumer {
  override createContext(args: unknown[], instance: object, callback: McpHandlerMethod) {
    const context = new McpExecutionContext(args, instance.constructor as Type, callback);
    return context as unknown as ReturnType<InterceptorsConsumer['createContext']>;
  }
}

const interceptorsConsumer = new McpInterceptorsConsumer();
const pipesConsumer = new PipesConsumer();

/**
 * Composes a handler with its enhancers in Nest's order: guards, then
 * interceptors around pipes and the method; exception filters around it all.
 * With no enhancers the method is called directly, so a synchronous handler
 * stays synchronous and nothing is allocated per call.
 */
export function createInvocation(
  instance: object,
  method: McpHandlerMethod,
  enhancers: McpEnhancers,
  piped?: McpPipedArgument,
): McpInvocation {
  const { guards, interceptors, pipes, filters } = enhancers;
  const classRef = instance.constructor as Type;
  // Whether anything of the app's may run before the body (and refuse the call there).
  const enhanced = guards.length > 0 || interceptors.length > 0 || (piped && pipes.length > 0);
  const call: McpInvocation =
    piped && pipes.length > 0
      ? async (args) => {
          const value = await pipesConsumer.applyPipes(
            args[piped.index],
            piped.metadata,
            pipes as never,
          );
          // The execution context keeps the arguments as they came; the method gets the piped ones.
          const callArgs = args.slice();
          callArgs[piped.index] = value;
          tell(args, true);
          return settleObservable(method.apply(instance, callArgs));
        }
      : enhanced
        ? (args) => {
            tell(args, true);
            return settleObservable(method.apply(instance, args));
          }
        : (args) => settleObservable(method.apply(instance, args));

  const intercepted: McpInvocation =
    interceptors.length === 0
      ? call
      : (args) =>
          interceptorsConsumer
            .intercept(
              interceptors as never,
              args,
              instance,
              method,
              async () => call(args),
              MCP_CONTEXT_TYPE,
            )
            .then(settle);

  const guarded: McpInvocation =
    guards.length === 0
      ? intercepted
      : (args) => {
          const passed = runGuards(guards, new McpExecutionContext(args, classRef, method));
          return passed === true ? intercepted(args) : passed.then(() => intercepted(args));
        };
  const told: McpInvocation = enhanced
    ? (args) => {
        tell(args, false);
        return guarded(args);
      }
    : guarded;

  if (filters.length === 0) return told;
  const recover = (error: unknown, args: unknown[]) =>
    applyFilters(filters, error, new McpExecutionContext(args, classRef, method));
  return (args) => {
    try {
      const result = told(args);
      return isPromiseLike(result)
        ? Promise.resolve(result).catch((error: unknown) => recover(error, args))
        : result;
    } catch (error) {
      return recover(error, args);
    }
  };
}

/**
 * The first filter that catches `error` decides: what it returns (a value, a
 * promise or an observable) is the handler's result, what it throws
 * propagates. `undefined` means "not handled" (as in Nest), so `error` does.
 */
function applyFilters(
  filters: readonly McpExceptionFilter[],
  error: unknown,
  host: McpExecutionContext,
): unknown {
  const filter = filters.find(
    ({ exceptionMetatypes }) =>
      exceptionMetatypes.length === 0 || exceptionMetatypes.some((type) => error instanceof type),
  );
  if (!filter) throw error;
  const handled = filter.func(error, host);
  if (handled === undefined) throw error;
  return isPromiseLike(handled) || isObservable(handled) ? settle(handled) : handled;
}

/* A handler may return an observable, as a controller may: its last value is the result. */
function settleObservable(value: unknown): unknown {
  return isObservable(value) ? lastValueFrom(value) : value;
}
