import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { McpTransportKind } from './core/protocol/transport-kind.js';
import { AUTHORIZER_PROVIDERS } from './authorization/authorizer.providers.js';
import { POLICY_PROVIDERS } from './policy/policy.providers.js';
import { AUDIT_PROVIDERS } from './audit/audit.providers.js';
import { CLIENT_EVENTS_PROVIDERS } from './engine/client-events/client-events.providers.js';
import {
  MCP_ASYNC_OPTIONS_TYPE,
  MCP_MODULE_OPTIONS,
  McpConfigurableModuleClass,
  type MCP_OPTIONS_TYPE,
} from './mcp.module-definition.js';
import type { McpModuleOptions } from './options/mcp-options.interface.js';
import { MCP_OPTIONS } from './core/options/options.constants.js';
import { resolveMcpOptions } from './options/options.resolver.js';
import { McpTransportCheck } from './options/transport.check.js';
import { REGISTRY_PROVIDERS } from './definitions/registry.providers.js';
import { SERVER_PROVIDERS } from './engine/server.providers.js';
import { ERA_PROVIDERS } from './revisions/2026-07-28/era.providers.js';
import { TELEMETRY_PROVIDERS } from './telemetry/telemetry.providers.js';
import { CLUSTER_HTTP_PROVIDERS, CLUSTER_PROVIDERS } from './cluster/cluster.providers.js';
import { APPROVALS_PROVIDERS } from './approvals/approvals.providers.js';
import { CONNECTION_HOOKS_PROVIDER } from './connection-hooks.provider.js';
import { httpTransport } from './transports/http/http.providers.js';
import { MCP_SERVER_MARK, serverMark } from './core/servers/server-mark.js';
import { McpServerScope } from './core/servers/mcp-server-scope.service.js';
import { McpServerSetCheck } from './options/server-set.check.js';
import {
  namedExportOf,
  PER_HTTP_SERVER_EXPORTS,
  PER_SERVER_EXPORTS,
} from './options/per-server-exports.js';

/**
 * Options of `McpModule.forRootAsync()`. `transport: 'http'` sits beside the
 * factory because the HTTP routes are declared with the module, before the
 * factory runs; so does `name`, which the server's injection tokens are made
 * of (required when the app has several servers, and then the factory's
 * `name` must match it or be left out).
 * @publicApi
 */
export type McpModuleAsyncOptions = typeof MCP_ASYNC_OPTIONS_TYPE & {
  transport?: McpTransportKind;
  name?: string;
};

/**
 * The MCP Warden framework: registry, authorization seams and server, and
 * with `transport: 'http'` the HTTP transports, mounted as Nest routes (so the
 * app's middleware, global prefix and CORS apply to them).
 *
 * @example
 * @Module({
 *   imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0', authorizer, readAuthorizer })],
 *   providers: [NotesTools],
 * })
 * export class AppModule {}
 *
 * @publicApi
 */
@Module({})
export class McpModule extends McpConfigurableModuleClass {
  /** The module with its options given now; `isGlobal: false` makes it an ordinary import. */
  static override forRoot(options: typeof MCP_OPTIONS_TYPE): DynamicModule {
    return withFramework(super.forRoot(options), options.transport, options.name);
  }

  /**
   * The module with its options from a factory, class or existing provider, resolved
   * by Nest at boot; `transport` beside the factory is the default of the factory's.
   */
  static override forRootAsync(options: McpModuleAsyncOptions): DynamicModule {
    return withFramework(super.forRootAsync(options), options.transport, options.name);
  }
}

/*
 * Every provider sits in this one dynamic module, beside the options it
 * injects, so nothing depends on the module being global. Each token is
 * provided once, so the order of the groups below does not matter (pinned by
 * test/nest/provider-order.e2e-spec.ts). Each module is one server: its
 * providers are its own instances, and several modules are several servers
 * (docs/several-servers.md).
 */
function withFramework(
  module: DynamicModule,
  declared?: McpTransportKind,
  name?: string,
): DynamicModule {
  const mark = serverMark(name);
  const transport =
    declared === 'http'
      ? httpTransport(mark.routeId)
      : { providers: [], controllers: [], exports: [] };
  // What is declared beside forRootAsync's factory is the default of the factory's.
  const resolve = (raw: McpModuleOptions, scope: McpServerScope) =>
    resolveMcpOptions(
      { transport: declared, ...raw, name: namedAs(name, raw.name) },
      { several: scope.several },
    );
  const exported = [...PER_SERVER_EXPORTS, ...(declared === 'http' ? PER_HTTP_SERVER_EXPORTS : [])];
  const named =
    name === undefined
      ? []
      : exported.map((token) => ({ provide: namedExportOf(token, name), useExisting: token }));
  return {
    ...module,
    imports: [...(module.imports ?? []), DiscoveryModule],
    providers: [
      ...(module.providers ?? []),
      { provide: MCP_SERVER_MARK, useValue: mark },
      McpServerScope,
      { provide: MCP_OPTIONS, useFactory: resolve, inject: [MCP_MODULE_OPTIONS, McpServerScope] },
      McpTransportCheck,
      McpServerSetCheck,
      ...REGISTRY_PROVIDERS,
      ...AUTHORIZER_PROVIDERS,
      ...AUDIT_PROVIDERS,
      ...POLICY_PROVIDERS,
      ...SERVER_PROVIDERS,
      ...ERA_PROVIDERS,
      ...TELEMETRY_PROVIDERS,
      ...APPROVALS_PROVIDERS,
      CONNECTION_HOOKS_PROVIDER,
      ...CLUSTER_PROVIDERS,
      ...CLIENT_EVENTS_PROVIDERS,
      ...transport.providers,
      // Cluster mode's HTTP stores plug into the transport's ports (null without `cluster`).
      ...(declared === 'http' ? CLUSTER_HTTP_PROVIDERS : []),
      ...named,
    ],
    controllers: [...(module.controllers ?? []), ...transport.controllers],
    exports: [
      ...PER_SERVER_EXPORTS,
      ...transport.exports,
      ...named.map((provider) => provider.provide),
    ],
  };
}

/* The name beside forRootAsync's factory and the factory's own must agree. */
function namedAs(declared: string | undefined, given: string | undefined): string {
  if (declared !== undefined && given !== undefined && given !== declared) {
    throw new Error(
      `McpModule: forRootAsync is named '${declared}' beside its factory, but the factory ` +
        `returned name '${given}'; the server's injection tokens are made of the first`,
    );
  }
  return (given ?? declared)!;
}
