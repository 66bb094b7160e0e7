import { Inject, Injectable } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { Module } from '@nestjs/core/injector/module.js';
import { MCP_OPTIONS } from '../options/options.constants.js';
import { MCP_SERVER_MARK, type McpServerMark } from './server-mark.js';

/** One server module of the app, as its siblings see it. */
export interface McpServerModule {
  readonly mark: McpServerMark;
  readonly module: Module;
}

/**
 * Where one server stands among the app's servers: its own Nest module, its
 * siblings, and which servers a feature module imported. An app has one
 * server per `McpModule.forRoot()` / `forRootAsync()`; everything a server
 * discovers (its protocol handlers, the tools it serves) is decided here.
 * Module scanning is complete before any provider is built, so the set of
 * servers is known from the first factory on; their resolved names, from
 * module init on.
 */
@Injectable()
export class McpServerScope {
  private own?: Module;

  constructor(
    private readonly container: ModulesContainer,
    @Inject(MCP_SERVER_MARK) readonly mark: McpServerMark,
  ) {}

  /** Every server module of the app, in the order Nest registered them. */
  servers(): McpServerModule[] {
    const found: McpServerModule[] = [];
    for (const module of this.container.values()) {
      const mark = module.providers.get(MCP_SERVER_MARK)?.instance as McpServerMark | undefined;
      if (mark) found.push({ mark, module });
    }
    return found;
  }

  /** Every module of the app, servers' included. */
  modules(): Iterable<Module> {
    return this.container.values();
  }

  /** More than one server in this app: ownership and defaults then depend on names. */
  get several(): boolean {
    return this.servers().length > 1;
  }

  /** This server's own Nest module. */
  ownModule(): Module {
    this.own ??= this.servers().find((server) => server.mark === this.mark)?.module;
    if (!this.own) throw new Error('McpServerScope: the server module is not registered');
    return this.own;
  }

  /**
   * A server's resolved options, typed as the caller's slice of them; known once providers are
   * built (module init), undefined before.
   */
  optionsOf<T>(server: McpServerModule): T | undefined {
    return server.module.providers.get(MCP_OPTIONS)?.instance as T | undefined;
  }

  /** A server's resolved name (`forRoot`'s `name`); known once providers are built. */
  nameOf(server: McpServerModule): string {
    return this.optionsOf<{ name?: string }>(server)?.name ?? server.mark.declaredName ?? '';
  }

  /** This server's resolved name. */
  get name(): string {
    return this.nameOf({ mark: this.mark, module: this.ownModule() });
  }

  /** The names of every server of the app. */
  names(): string[] {
    return this.servers().map((server) => this.nameOf(server));
  }

  /**
   * The servers a module imported itself, in its `@Module()` metadata or its
   * dynamic module: not the ones it sees only because they are global (Nest
   * binds every global module into every module's imports).
   */
  serversImportedBy(module: Module): string[] {
    const declared = declaredImports(module);
    return this.servers()
      .filter((server) => declared.some((entry) => declares(entry, server.mark)))
      .map((server) => this.nameOf(server));
  }
}

function declaredImports(module: Module): unknown[] {
  const metatype = module.metatype as object | undefined;
  const own: unknown[] = (metatype && Reflect.getMetadata('imports', metatype)) ?? [];
  // A dynamic module's own imports are kept by the container, under the module's token.
  const container = (module as unknown as { container?: DynamicImports }).container;
  const dynamic = container?.getDynamicMetadataByToken?.(module.token, 'imports') ?? [];
  return [...own, ...(Array.isArray(dynamic) ? dynamic : [])];
}

interface DynamicImports {
  getDynamicMetadataByToken?(token: string, key: 'imports'): unknown;
}

/* An entry of `imports` that is this server's dynamic module: it carries the server's mark. */
function declares(entry: unknown, mark: McpServerMark): boolean {
  const providers = (entry as { providers?: unknown[] } | null)?.providers;
  return (
    Array.isArray(providers) &&
    providers.some(
      (provider) =>
        (provider as { provide?: unknown })?.provide === MCP_SERVER_MARK &&
        (provider as { useValue?: unknown }).useValue === mark,
    )
  );
}
