import type { DiscoveryService } from '@nestjs/core';

/** A provider's instance wrapper, as `DiscoveryService` lists it. */
export type ProviderWrapper = ReturnType<DiscoveryService['getProviders']>[number];

/**
 * A method on a provider, as discovered at init. For a request-scoped
 * provider, `instance` is only the prototype-backed placeholder Nest keeps:
 * good for reading metadata, never for calling.
 */
export interface ProviderMethod {
  readonly wrapper: ProviderWrapper;
  readonly instance: object;
  readonly method: string;
  readonly target: (...args: unknown[]) => unknown;
}
