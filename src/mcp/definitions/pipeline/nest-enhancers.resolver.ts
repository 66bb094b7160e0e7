import type { CanActivate, NestInterceptor, PipeTransform, Type } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA } from '@nestjs/common/constants.js';
import type { ApplicationConfig, ContextId, ModulesContainer, NestContainer } from '@nestjs/core';
import {
  ExternalExceptionFilterContext,
  GuardsContextCreator,
  InterceptorsContextCreator,
  PipesContextCreator,
} from './nest-context-creators.js';

/** A handler method, as Nest's context creators take it. */
export type McpHandlerMethod = (...args: unknown[]) => unknown;

/** One exception filter bound to the exceptions its `@Catch()` names (none: every exception). */
export interface McpExceptionFilter {
  readonly func: (exception: unknown, host: unknown) => unknown;
  readonly exceptionMetatypes: readonly Type[];
}

/** Every enhancer that applies to one handler, global ones first. */
export interface McpEnhancers {
  readonly guards: readonly CanActivate[];
  readonly interceptors: readonly NestInterceptor[];
  readonly pipes: readonly PipeTransform[];
  /** Method filters first, then class, then global: the first that catches wins. */
  readonly filters: readonly McpExceptionFilter[];
}

/* Exposes the filter list that `create()` hides inside an exceptions handler. */
class FilterContextCreator extends ExternalExceptionFilterContext {
  filtersOf(
    instance: object,
    callback: McpHandlerMethod,
    moduleKey: string,
    contextId?: ContextId,
    inquirerId?: string,
  ): McpExceptionFilter[] {
    this.moduleContext = moduleKey;
    const filters = this.createContext<unknown[], McpExceptionFilter[]>(
      instance,
      callback,
      EXCEPTION_FILTERS_METADATA,
      contextId,
      inquirerId,
    );
    return filters.reverse();
  }
}

/**
 * Resolves a handler's enhancers with Nest's own context creators, so MCP
 * handlers see exactly what a controller would: global enhancers (from
 * `app.useGlobal*()` and from `APP_*` providers), then the class's, then the
 * method's, each instance taken from its host module.
 */
export class NestEnhancersResolver {
  private readonly ownGuards: GuardsContextCreator;
  private readonly guards: GuardsContextCreator;
  private readonly interceptors: InterceptorsContextCreator;
  private readonly pipes: PipesContextCreator;
  private readonly filters: FilterContextCreator;

  constructor(
    modules: ModulesContainer,
    private readonly config: ApplicationConfig,
  ) {
    // The context creators read one thing from the container, its modules (to find an
    // enhancer's instance in its host module); the container itself is not injectable.
    const container = { getModules: () => modules } as unknown as NestContainer;
    // Without the application config, a creator sees no global enhancers.
    this.ownGuards = new GuardsContextCreator(container);
    this.guards = new GuardsContextCreator(container, config);
    this.interceptors = new InterceptorsContextCreator(container, config);
    this.pipes = new PipesContextCreator(container, config);
    this.filters = new FilterContextCreator(container, config);
  }

  /** The class and method guards only: what the server's own protocol handlers run. */
  ownGuardsOf(instance: object, callback: McpHandlerMethod, moduleKey: string): CanActivate[] {
    return this.ownGuards.create(instance, callback, moduleKey);
  }

  /** Global, class and method guards, interceptors, pipes and filters of a user handler. */
  enhancersOf(
    instance: object,
    callback: McpHandlerMethod,
    moduleKey: string,
    contextId?: ContextId,
    inquirerId?: string,
  ): McpEnhancers {
    const args = [instance, callback, moduleKey, contextId, inquirerId] as const;
    return {
      guards: this.guards.create(...args),
      interceptors: this.interceptors.create(...args),
      pipes: this.pipes.create(...args),
      filters: this.filters.filtersOf(...args),
    };
  }

  /** True when a global enhancer is request-scoped: it exists only per request. */
  hasRequestScopedGlobals(): boolean {
    const { config } = this;
    return (
      config.getGlobalRequestGuards().length > 0 ||
      config.getGlobalRequestInterceptors().length > 0 ||
      config.getGlobalRequestPipes().length > 0 ||
      config.getGlobalRequestFilters().length > 0
    );
  }
}
