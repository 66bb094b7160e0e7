import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import {
  ProviderMethodScanner,
  type ProviderMethod,
} from '../discovery/provider-method.scanner.js';
import { resolveCompleter, resolveCompleters } from './completer.resolver.js';
import { McpMetadataAccessor } from './mcp-metadata.accessor.js';
import { McpRegistry } from './mcp-registry.service.js';

/**
 * Finds `@McpTool` / `@McpResource` / `@McpResourceTemplate` / `@McpPrompt`
 * methods on providers at module init and registers them. Each method is
 * wrapped once, here, by Nest's `ExternalContextCreator` (context type
 * `'mcp'`), so the user's own guards and interceptors run on every call
 * without any per-call reflection.
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  private readonly logger = new Logger('McpExplorer');

  constructor(
    private readonly scanner: ProviderMethodScanner,
    private readonly accessor: McpMetadataAccessor,
    private readonly registry: McpRegistry,
  ) {}

  onModuleInit(): void {
    for (const found of this.scanner.methods()) this.explore(found);
  }

  private explore(found: ProviderMethod): void {
    const { wrapper, instance, method, target } = found;
    const tool = this.accessor.getTool(target);
    const resource = this.accessor.getResource(target);
    const template = this.accessor.getResourceTemplate(target);
    const prompt = this.accessor.getPrompt(target);
    if (!tool && !resource && !template && !prompt) return;

    const source = `${instance.constructor.name}.${method}`;
    if (!wrapper.isDependencyTreeStatic()) {
      this.logger.warn(`${source} is not a singleton provider; MCP handlers must be. Skipped.`);
      return;
    }
    const handler = this.scanner.wrap(found);
    if (tool) {
      const { name = method, inputSchema, completions, ...rest } = tool;
      const resolved = resolveCompleters(completions, instance, source);
      const def = { ...rest, name, inputSchema: inputSchema!, handler, completions: resolved };
      if (inputSchema === undefined) delete (def as Partial<typeof def>).inputSchema;
      this.registry.registerTool(def, source);
    }
    if (resource) {
      const def = { ...resource, name: resource.name ?? method, handler };
      this.registry.registerResource(def, source);
    }
    if (template) {
      const completions = resolveCompleters(template.completions, instance, source);
      const def = { ...template, name: template.name ?? method, handler, completions };
      this.registry.registerResourceTemplate(def, source);
    }
    if (prompt) {
      const args = prompt.arguments?.map((arg) => ({
        ...arg,
        complete: resolveCompleter(arg.complete, instance, source),
      }));
      const def = { ...prompt, name: prompt.name ?? method, handler, arguments: args };
      this.registry.registerPrompt(def, source);
    }
  }
}
