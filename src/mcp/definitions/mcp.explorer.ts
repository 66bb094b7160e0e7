import { Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { ProviderMethodScanner, type ProviderMethod } from './discovery/provider-method.scanner.js';
import type { McpPipedArgument } from './pipeline/handler-pipeline.js';
import { resolveCompleter, resolveCompleters } from './completer.resolver.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { McpRegistry } from './mcp-registry.service.js';
import { McpServerScope } from '../core/servers/mcp-server-scope.service.js';
import { servedHere } from './discovery/server-ownership.js';

/**
 * Finds `@McpTool` / `@McpResource` / `@McpResourceTemplate` / `@McpPrompt`
 * methods on providers at module init and registers them. Each handler runs
 * behind the app's global enhancers and its own (guards, interceptors, pipes,
 * exception filters; context type `'mcp'`); a request-scoped provider is
 * built per call. A provider scope that cannot be served fails the boot.
 * With several servers, each registers only the definitions it serves
 * (`servedHere`).
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  constructor(
    private readonly scanner: ProviderMethodScanner,
    private readonly accessor: McpMetadataAccessor,
    private readonly registry: McpRegistry,
    private readonly scope: McpServerScope,
  ) {}

  onModuleInit(): void {
    for (const found of this.scanner.methods()) this.explore(found);
  }

  private explore(found: ProviderMethod): void {
    const { instance, method, target } = found;
    const tool = this.accessor.getTool(target);
    const resource = this.accessor.getResource(target);
    const template = this.accessor.getResourceTemplate(target);
    const prompt = this.accessor.getPrompt(target);
    if (!tool && !resource && !template && !prompt) return;

    const source = `${instance.constructor.name}.${method}`;
    const here = (kind: string, declared: { server?: string | string[] }) =>
      servedHere(this.scope, found, kind, source, declared.server);
    const handlerFor = (kind: string, metatype?: Type) =>
      this.scanner.userHandler(found, { kind, source, piped: pipedArguments(metatype) });
    const bind = this.scanner.completerBinder(found);
    if (tool && here('tool', tool)) {
      const { name = method, inputSchema, completions, server: _, ...rest } = tool;
      const handler = handlerFor('tool', typeof inputSchema === 'function' ? inputSchema : Object);
      const resolved = resolveCompleters(completions, bind, source);
      const def = { ...rest, name, inputSchema: inputSchema!, handler, completions: resolved };
      if (inputSchema === undefined) delete (def as Partial<typeof def>).inputSchema;
      this.registry.registerTool(def, source);
    }
    if (resource && here('resource', resource)) {
      const { server: _, ...options } = resource;
      const handler = handlerFor('resource');
      const def = { ...options, name: resource.name ?? method, handler };
      this.registry.registerResource(def, source);
    }
    if (template && here('resource template', template)) {
      const { server: _, ...options } = template;
      const completions = resolveCompleters(template.completions, bind, source);
      const handler = handlerFor('resource template');
      const def = { ...options, name: template.name ?? method, handler, completions };
      this.registry.registerResourceTemplate(def, source);
    }
    if (prompt && here('prompt', prompt)) {
      const { server: _, ...options } = prompt;
      const args = prompt.arguments?.map((arg) => ({
        ...arg,
        complete: resolveCompleter(arg.complete, bind, source),
      }));
      const handler = handlerFor('prompt', Object);
      const def = { ...options, name: prompt.name ?? method, handler, arguments: args };
      this.registry.registerPrompt(def, source);
    }
  }
}

/*
 * Pipes transform a tool's or a prompt's arguments (argument 0) as a body, told the
 * tool's DTO class when it has one, so a global ValidationPipe validates DTO tools.
 */
function pipedArguments(metatype: Type | undefined): McpPipedArgument | undefined {
  return metatype ? { index: 0, metadata: { type: 'body', metatype } } : undefined;
}
