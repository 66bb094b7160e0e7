import { Injectable } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type {
  McpPromptEntry,
  McpResourceEntry,
  McpResourceTemplateEntry,
  McpToolEntry,
} from './interfaces/registry-entry.interface.js';
import type { McpPromptDefinition } from './interfaces/prompt.interface.js';
import type {
  McpResourceDefinition,
  McpResourceTemplateDefinition,
} from './interfaces/resource.interface.js';
import type { McpToolDefinition } from './interfaces/tool.interface.js';
import {
  createPromptEntry,
  createResourceEntry,
  createResourceTemplateEntry,
  createToolEntry,
} from './registry-entry.factory.js';
import { McpDefinitionError } from './registry.errors.js';

/** Which list changed; the server turns it into `notifications/<kind>/list_changed`. */
export type McpListKind = 'tools' | 'resources' | 'prompts';

/**
 * Holds every tool, resource, template and prompt, in registration order (the
 * order lists are served in). The explorer fills it at bootstrap; providers
 * may add and remove definitions at runtime, which announces the change.
 */
@Injectable()
export class McpRegistry {
  private readonly toolEntries = new Map<string, McpToolEntry>();
  private readonly resourceEntries = new Map<string, McpResourceEntry>();
  private readonly templateEntries = new Map<string, McpResourceTemplateEntry>();
  private readonly promptEntries = new Map<string, McpPromptEntry>();
  private readonly changed = new Subject<McpListKind>();

  /** Emits the kind of list that changed after every register/unregister. */
  readonly changes$: Observable<McpListKind> = this.changed.asObservable();

  /** Adds a tool. Throws `McpDefinitionError` for an invalid or duplicate definition. */
  registerTool(def: McpToolDefinition, source = 'registerTool'): void {
    this.addTool(createToolEntry(def, source));
  }

  /** Adds an already-built tool entry (the explorer's path). */
  addTool(entry: McpToolEntry): void {
    this.add(this.toolEntries, entry.tool.name, entry, 'tool', entry.source);
    this.changed.next('tools');
  }

  unregisterTool(name: string): boolean {
    return this.remove(this.toolEntries, name, 'tools');
  }

  registerResource(def: McpResourceDefinition, source = 'registerResource'): void {
    this.addResource(createResourceEntry(def, source));
  }

  addResource(entry: McpResourceEntry): void {
    this.add(this.resourceEntries, entry.resource.uri, entry, 'resource', entry.source);
    this.changed.next('resources');
  }

  unregisterResource(uri: string): boolean {
    return this.remove(this.resourceEntries, uri, 'resources');
  }

  registerResourceTemplate(
    def: McpResourceTemplateDefinition,
    source = 'registerResourceTemplate',
  ): void {
    this.addResourceTemplate(createResourceTemplateEntry(def, source));
  }

  addResourceTemplate(entry: McpResourceTemplateEntry): void {
    const key = entry.template.uriTemplate;
    this.add(this.templateEntries, key, entry, 'resource template', entry.source);
    this.changed.next('resources');
  }

  unregisterResourceTemplate(uriTemplate: string): boolean {
    return this.remove(this.templateEntries, uriTemplate, 'resources');
  }

  registerPrompt(def: McpPromptDefinition, source = 'registerPrompt'): void {
    this.addPrompt(createPromptEntry(def, source));
  }

  addPrompt(entry: McpPromptEntry): void {
    this.add(this.promptEntries, entry.prompt.name, entry, 'prompt', entry.source);
    this.changed.next('prompts');
  }

  unregisterPrompt(name: string): boolean {
    return this.remove(this.promptEntries, name, 'prompts');
  }

  tool(name: string): McpToolEntry | undefined {
    return this.toolEntries.get(name);
  }

  tools(): McpToolEntry[] {
    return [...this.toolEntries.values()];
  }

  resource(uri: string): McpResourceEntry | undefined {
    return this.resourceEntries.get(uri);
  }

  resources(): McpResourceEntry[] {
    return [...this.resourceEntries.values()];
  }

  template(uriTemplate: string): McpResourceTemplateEntry | undefined {
    return this.templateEntries.get(uriTemplate);
  }

  templates(): McpResourceTemplateEntry[] {
    return [...this.templateEntries.values()];
  }

  /** The first template (in registration order) whose pattern matches `uri`. */
  matchTemplate(
    uri: string,
  ): { entry: McpResourceTemplateEntry; variables: Record<string, string> } | undefined {
    for (const entry of this.templateEntries.values()) {
      const variables = entry.matcher.match(uri);
      if (variables) return { entry, variables };
    }
    return undefined;
  }

  prompt(name: string): McpPromptEntry | undefined {
    return this.promptEntries.get(name);
  }

  prompts(): McpPromptEntry[] {
    return [...this.promptEntries.values()];
  }

  private add<T>(map: Map<string, T>, key: string, entry: T, kind: string, source: string): void {
    if (map.has(key)) throw new McpDefinitionError(kind, source, `"${key}" is already registered`);
    map.set(key, entry);
  }

  private remove<T>(map: Map<string, T>, key: string, kind: McpListKind): boolean {
    const removed = map.delete(key);
    if (removed) this.changed.next(kind);
    return removed;
  }
}
