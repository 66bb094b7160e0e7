import { Injectable, type OnModuleInit } from '@nestjs/common';
import { McpServerScope, type McpServerModule } from '../core/servers/mcp-server-scope.service.js';
import { MCP_HTTP_MOUNTED } from '../core/options/options.constants.js';
import type { McpResolvedOptions } from './resolved-options.interface.js';
import { unnamedInjections } from './unnamed-injections.js';
import { sharedState } from './shared-state.check.js';
import { protectedResourcePath } from '../authentication/protected-resource.metadata.js';

/**
 * Fails boot on an app whose servers cannot be told apart: two with one
 * name, an unnamed `forRootAsync` among several, two on stdio, two HTTP
 * routes at one path, state shared between them (`sharedState`), or a
 * provider that injects a server's class without naming the server. Each server runs it; the first to find a problem stops
 * the boot, naming the servers and what to change.
 */
@Injectable()
export class McpServerSetCheck implements OnModuleInit {
  constructor(private readonly scope: McpServerScope) {}

  onModuleInit(): void {
    const servers = this.scope.servers();
    if (servers.length < 2 || servers[0]!.mark !== this.scope.mark) return;
    // Read once: every check below looks at each server's resolved options.
    const named = servers.map((server) => ({
      server,
      name: this.scope.nameOf(server),
      options: this.scope.optionsOf<McpResolvedOptions>(server)!,
    }));
    const seen = new Set<string>();
    for (const { server, name } of named) {
      if (seen.has(name)) {
        refuse(
          `two servers are named '${name}': give each its own name (or, if one forRoot() is ` +
            'imported in two places, import it once: it is global)',
        );
      }
      seen.add(name);
      if (server.mark.declaredName === undefined) {
        refuse(
          `server '${name}' comes from forRootAsync without a name beside its factory; ` +
            `with several servers, write McpModule.forRootAsync({ name: '${name}', useFactory, … })`,
        );
      }
    }
    const stdio = named.filter(({ options }) => options.transport === 'stdio');
    if (stdio.length > 1) {
      refuse(
        `servers ${list(stdio.map((s) => s.name))} all declare stdio; one process has one stdin`,
      );
    }
    checkRoutes(named);
    const shared = sharedState(named);
    if (shared) refuse(shared);
    const unnamed = unnamedInjections(servers, this.scope.modules());
    if (unnamed.length > 0) {
      refuse(
        `${unnamed.join(', ')} without naming a server, and this app has servers ` +
          `${list(named.map((s) => s.name))}: inject with @InjectMcpWarden('name'), ` +
          `@InjectMcpRegistry('name') or getMcpWardenToken('name')`,
      );
    }
  }
}

/* Every HTTP route a server claims; two servers claiming one is refused. */
function checkRoutes(
  named: { server: McpServerModule; name: string; options: McpResolvedOptions }[],
): void {
  const owners = new Map<string, string>();
  for (const { server, name, options } of named) {
    if (!server.module.providers.has(MCP_HTTP_MOUNTED)) continue;
    const { http, approvals } = options;
    const routes: [string, string][] = [
      [http.path, 'http.path'],
      [`${http.ssePairPath}/sse`, 'http.ssePairPath'],
      [`${http.ssePairPath}/messages`, 'http.ssePairPath'],
    ];
    if (approvals.console || approvals.webhook)
      routes.push([approvals.path, 'approvals.console.path']);
    // Its protected resource metadata, at its audience's path (docs/several-servers.md).
    if (http.auth) routes.push([protectedResourcePath(http.auth), 'http.auth.audience']);
    for (const [path, option] of routes) {
      const other = owners.get(path);
      if (other !== undefined) {
        refuse(`servers '${other}' and '${name}' both serve ${path}; set '${name}''s ${option}`);
      }
      owners.set(path, name);
    }
  }
}

function list(names: string[]): string {
  return names.map((name) => `'${name}'`).join(', ');
}

function refuse(problem: string): never {
  throw new Error(`MCP server refuses to boot: ${problem} (docs/several-servers.md)`);
}
