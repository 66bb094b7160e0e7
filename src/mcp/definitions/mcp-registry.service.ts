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

/**
 * Which list changed; the server turns it into `notifications/<kind>/list_changed`.
 * @publicApi
 */
export type McpListKind = 'tools' | 'resources' | 'prompts';

/**
 * Holds every tool, resource, template and prompt, in registration order (the
 * order lists are served in). The explorer fills it at bootstrap through
 * the same `registerX` methods providers call at runtime; every change is
 * announced on `changes$`. Entries hold their own compiled schemas, so
 * unregistering releases everything a definition cost.
 * @publicApi
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

  /**
   * Adds a tool. Throws `McpDefinitionError` for an invalid or duplicate
   * definition. `source` labels the definition in those errors (the explorer
   * passes `Class.method`).
   */
  registerTool(def: McpToolDefinition, source = 'registerTool'): void {
    const entry = createToolEntry(def, source);
    this.add(this.toolEntries, entry.tool.name, entry, 'tool', source);
    this.changed.next('tools');
  }

  /** Removes a tool and, with it, its compiled schemas. False when none had that name. */
  unregisterTool(name: string): boolean {
    return this.remove(this.toolEntries, name, 'tools');
  }

  /** Adds a static resource; throws `McpDefinitionError` like `registerTool`. */
  registerResource(def: McpResourceDefinition, source = 'registerResource'): void {
    const entry = createResourceEntry(def, source);
    this.add(this.resourceEntries, entry.resource.uri, entry, 'resource', source);
    this.changed.next('resources');
  }

  /** Removes a static resource. False when none had that URI. */
  unregisterResource(uri: string): boolean {
    return this.remove(this.resourceEntries, uri, 'resources');
  }

  /** Adds a resource template; throws `McpDefinitionError` like `registerTool`. */
  registerResourceTemplate(
    def: McpResourceTemplateDefinition,
    source = 'registerResourceTemplate',
  ): void {
    const entry = createResourceTemplateEntry(def, source);
    const key = entry.template.uriTemplate;
    this.add(this.templateEntries, key, entry, 'resource template', source);
    this.changed.next('resources');
  }

  /** Removes a resource template. False when none had that URI template. */
  unregisterResourceTemplate(uriTemplate: string): boolean {
    return this.remove(this.templateEntries, uriTemplate, 'resources');
  }

  /** Adds a prompt; throws `McpDefinitionError` like `registerTool`. */
  registerPrompt(def: McpPromptDefinition, source = 'registerPrompt'): void {
    const entry = createPromptEntry(def, source);
    this.add(this.promptEntries, entry.prompt.name, entry, 'prompt', source);
    this.changed.next('prompts');
  }

  /** Removes a prompt. False when none had that name. */
  unregisterPrompt(name: string): boolean {
    return this.remove(this.promptEntries, name, 'prompts');
  }

  /** The registered tool named `name`, if any. */
  tool(name: string): McpToolEntry | undefined {
    return this.toolEntries.get(name);
  }

  /** Every tool, in registration order. */
  tools(): McpToolEntry[] {
    return [...this.toolEntries.values()];
  }

  /** The static resource at `uri`, if any. */
  resource(uri: string): McpResourceEntry | undefined {
    return this.resourceEntries.get(uri);
  }

  /** Every static resource, in registration order. */
  resources(): McpResourceEntry[] {
    return [...this.resourceEntries.values()];
  }

  /** The template registered under `uriTemplate`, if any. */
  template(uriTemplate: string): McpResourceTemplateEntry | undefined {
    return this.templateEntries.get(uriTemplate);
  }

  /** Every resource template, in registration order. */
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

  /** The prompt named `name`, if any. */
  prompt(name: string): McpPromptEntry | undefined {
    return this.promptEntries.get(name);
  }

  /** Every prompt, in registration order. */
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
