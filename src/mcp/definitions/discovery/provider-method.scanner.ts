import { Injectable, type CanActivate } from '@nestjs/common';
import {
  ApplicationConfig,
  DiscoveryService,
  MetadataScanner,
  ModuleRef,
  ModulesContainer,
} from '@nestjs/core';
import {
  McpHandlerFactory,
  type McpHandlerSpec,
  type McpUserHandler,
} from '../pipeline/mcp-handler.factory.js';
import { McpRequestScope } from '../pipeline/mcp-request-scope.js';
import { NestEnhancersResolver } from '../pipeline/nest-enhancers.resolver.js';
import type { McpCompleterBinder } from '../completer.resolver.js';
import type { ProviderMethod, ProviderWrapper } from './provider-method.interface.js';
import { McpServerScope } from '../../core/servers/mcp-server-scope.service.js';

export type { ProviderMethod } from './provider-method.interface.js';

/**
 * What both explorers (the registry's decorators and the server's method
 * handlers) need from Nest: every method of every provider, and the
 * enhancers that apply to one. The server's protocol handlers get only their
 * own guards (the seams); user handlers get the app's global enhancers too.
 */
@Injectable()
export class ProviderMethodScanner {
  private readonly enhancers: NestEnhancersResolver;
  private readonly handlers: McpHandlerFactory;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    modules: ModulesContainer,
    config: ApplicationConfig,
    moduleRef: ModuleRef,
    private readonly scope: McpServerScope,
  ) {
    this.enhancers = new NestEnhancersResolver(modules, config);
    this.handlers = new McpHandlerFactory(this.enhancers, new McpRequestScope(config, moduleRef));
  }

  /**
   * Every method of the app's providers, but those of other servers' modules
   * (their framework internals: they hold no definitions of this server).
   */
  methods(): Generator<ProviderMethod> {
    const others = new Set(
      this.scope
        .servers()
        .filter((server) => server.mark !== this.scope.mark)
        .map((server) => server.module),
    );
    const wrappers = this.discovery.getProviders();
    return this.methodsOf(others.size ? wrappers.filter((w) => !others.has(w.host!)) : wrappers);
  }

  /** Every method of this server's own providers: its protocol handlers. */
  ownMethods(): Generator<ProviderMethod> {
    return this.methodsOf([...this.scope.ownModule().providers.values()] as ProviderWrapper[]);
  }

  private *methodsOf(wrappers: Iterable<ProviderWrapper>): Generator<ProviderMethod> {
    for (const wrapper of wrappers) {
      const { instance } = wrapper;
      if (!instance || typeof instance !== 'object') continue;
      const proto = Object.getPrototypeOf(instance);
      if (!proto) continue;
      for (const method of this.scanner.getAllMethodNames(proto)) {
        const target = (instance as Record<string, ProviderMethod['target']>)[method];
        yield { wrapper, instance, method, target };
      }
    }
  }

  /** A protocol handler's own class and method guards, never the app's global ones. */
  ownGuards({ instance, target, wrapper }: ProviderMethod): CanActivate[] {
    return this.enhancers.ownGuardsOf(instance, target, wrapper.host?.token ?? '');
  }

  /**
   * A user handler with the app's global and its own guards, interceptors,
   * pipes and exception filters; request-scoped providers are built per call.
   * Throws `McpDefinitionError` for a provider scope that cannot be served.
   */
  userHandler(found: ProviderMethod, spec: McpHandlerSpec): McpUserHandler {
    return this.handlers.create(found, spec);
  }

  /** Binds completers named by method on the provider (per call when request-scoped). */
  completerBinder(found: ProviderMethod): McpCompleterBinder {
    return this.handlers.completerBinder(found);
  }
}
