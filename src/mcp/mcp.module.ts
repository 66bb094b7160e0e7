import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { McpTransportKind } from './core/protocol/transport-kind.js';
import { AUTHORIZER_PROVIDERS } from './authorization/authorizer.providers.js';
import { POLICY_PROVIDERS } from './policy/policy.providers.js';
import { AUDIT_PROVIDERS } from './audit/audit.providers.js';
import { McpPolicy } from './policy/mcp-policy.service.js';
import { CLIENT_EVENTS_PROVIDERS } from './engine/client-events/client-events.providers.js';
import { McpClientEvents } from './engine/client-events/mcp-client-events.service.js';
import { McpUrlElicitations } from './engine/elicitation/mcp-url-elicitations.service.js';
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
import { McpRegistry } from './definitions/mcp-registry.service.js';
import { SERVER_PROVIDERS } from './engine/server.providers.js';
import { ERA_PROVIDERS } from './revisions/2026-07-28/era.providers.js';
import { TELEMETRY_PROVIDERS } from './telemetry/telemetry.providers.js';
import { CLUSTER_HTTP_PROVIDERS, CLUSTER_PROVIDERS } from './cluster/cluster.providers.js';
import { APPROVALS_PROVIDERS } from './approvals/approvals.providers.js';
import { CONNECTION_HOOKS_PROVIDER } from './connection-hooks.provider.js';
import { MCP_APPROVAL_STORE } from './approvals/stores/approval-store.interface.js';
import { MCP_OPERATOR_DESK } from './approvals/operator/operator-desk.interface.js';
import { McpWarden } from './engine/mcp-warden.service.js';
import { httpTransport } from './transports/http/http.providers.js';

/**
 * Options of `McpModule.forRootAsync()`. `transport: 'http'` sits beside the
 * factory because the HTTP routes are declared with the module, before the
 * factory runs.
 * @publicApi
 */
export type McpModuleAsyncOptions = typeof MCP_ASYNC_OPTIONS_TYPE & {
  transport?: McpTransportKind;
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
    return withFramework(super.forRoot(options), options.transport);
  }

  /**
   * The module with its options from a factory, class or existing provider, resolved
   * by Nest at boot; `transport` beside the factory is the default of the factory's.
   */
  static override forRootAsync(options: McpModuleAsyncOptions): DynamicModule {
    return withFramework(super.forRootAsync(options), options.transport);
  }
}

/*
 * Every provider sits in this one dynamic module, beside the options it
 * injects, so nothing depends on the module being global. Each token is
 * provided once, so the order of the groups below does not matter (pinned by
 * test/nest/provider-order.e2e-spec.ts).
 */
function withFramework(module: DynamicModule, declared?: McpTransportKind): DynamicModule {
  const transport =
    declared === 'http' ? httpTransport() : { providers: [], controllers: [], exports: [] };
  // The transport declared beside forRootAsync's factory is the default of the factory's.
  const resolve = (raw: McpModuleOptions) => resolveMcpOptions({ transport: declared, ...raw });
  return {
    ...module,
    imports: [...(module.imports ?? []), DiscoveryModule],
    providers: [
      ...(module.providers ?? []),
      { provide: MCP_OPTIONS, useFactory: resolve, inject: [MCP_MODULE_OPTIONS] },
      McpTransportCheck,
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
    ],
    controllers: [...(module.controllers ?? []), ...transport.controllers],
    exports: [
      MCP_MODULE_OPTIONS,
      MCP_OPTIONS,
      McpWarden,
      McpRegistry,
      McpPolicy,
      McpClientEvents,
      McpUrlElicitations,
      MCP_OPERATOR_DESK,
      MCP_APPROVAL_STORE,
      ...transport.exports,
    ],
  };
}
