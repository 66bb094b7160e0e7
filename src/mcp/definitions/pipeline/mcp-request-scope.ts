import { ContextIdFactory, ModuleRef, type ApplicationConfig, type ContextId } from '@nestjs/core';
import type { ProviderWrapper } from '../discovery/provider-method.interface.js';

/** A provider instance built for one MCP request, and the context id it lives under. */
export interface McpScopedInstance {
  readonly instance: Record<string, unknown>;
  readonly contextId: ContextId;
}

/**
 * Builds request-scoped providers for one MCP request, as Nest's router does
 * for a controller: a fresh context id, the request registered under it (what
 * `@Inject(REQUEST)` gives), then the provider resolved in its host module.
 * Request-scoped global enhancers are built for the same context, so they
 * are found when the handler's enhancers are resolved.
 */
export class McpRequestScope {
  constructor(
    private readonly config: ApplicationConfig,
    private readonly fallback: ModuleRef,
  ) {}

  async resolve(wrapper: ProviderWrapper, request: object): Promise<McpScopedInstance> {
    const contextId = ContextIdFactory.create();
    this.fallback.registerRequestByContextId(request, contextId);
    const globals = this.requestScopedGlobals();
    if (globals.length > 0) {
      await Promise.all(globals.map((global) => this.resolveIn(global, contextId)));
    }
    const instance = (await this.resolveIn(wrapper, contextId)) as Record<string, unknown>;
    return { instance, contextId };
  }

  private requestScopedGlobals(): ProviderWrapper[] {
    const { config } = this;
    return [
      ...config.getGlobalRequestGuards(),
      ...config.getGlobalRequestInterceptors(),
      ...config.getGlobalRequestPipes(),
      ...config.getGlobalRequestFilters(),
    ] as ProviderWrapper[];
  }

  /* In the wrapper's own module (a token may be provided by several); anywhere as a fallback. */
  private resolveIn(wrapper: ProviderWrapper, contextId: ContextId): Promise<unknown> {
    const moduleRef = wrapper.host?.getProviderByKey<ModuleRef>(ModuleRef)?.instance;
    return moduleRef
      ? moduleRef.resolve(wrapper.token, contextId, { strict: true })
      : this.fallback.resolve(wrapper.token, contextId, { strict: false });
  }
}
