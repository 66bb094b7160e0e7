import { Injectable } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, MetadataScanner } from '@nestjs/core';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';

/** A method on a provider instance, as discovered at init. */
export interface ProviderMethod {
  readonly wrapper: ReturnType<DiscoveryService['getProviders']>[number];
  readonly instance: object;
  readonly method: string;
  readonly target: (...args: unknown[]) => unknown;
}

/**
 * What both explorers (the registry's decorators and the server's method
 * handlers) need from Nest: every method of every provider, and a way to wrap
 * one so its guards and interceptors run (context type `'mcp'`).
 */
@Injectable()
export class ProviderMethodScanner {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly contextCreator: ExternalContextCreator,
  ) {}

  *methods(): Generator<ProviderMethod> {
    for (const wrapper of this.discovery.getProviders()) {
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

  /**
   * Wraps `target` once, at init, so no reflection happens per call. Exception
   * filters are HTTP-shaped and stay off: the server maps errors itself.
   */
  wrap({ instance, target, method }: ProviderMethod): (...args: unknown[]) => Promise<unknown> {
    return this.contextCreator.create(
      instance,
      target,
      method,
      undefined,
      undefined,
      undefined,
      undefined,
      { guards: true, interceptors: true, filters: false },
      MCP_CONTEXT_TYPE,
    );
  }
}
