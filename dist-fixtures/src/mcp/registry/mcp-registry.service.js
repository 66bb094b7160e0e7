var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Injectable } from '@nestjs/common';
import { Subject } from 'rxjs';
import { createPromptEntry, createResourceEntry, createResourceTemplateEntry, createToolEntry, } from './registry-entry.factory.js';
import { McpDefinitionError } from './registry.errors.js';
/**
 * Holds every tool, resource, template and prompt, in registration order (the
 * order lists are served in). The explorer fills it at bootstrap; providers
 * may add and remove definitions at runtime, which announces the change.
 */
let McpRegistry = class McpRegistry {
    constructor() {
        this.toolEntries = new Map();
        this.resourceEntries = new Map();
        this.templateEntries = new Map();
        this.promptEntries = new Map();
        this.changed = new Subject();
        /** Emits the kind of list that changed after every register/unregister. */
        this.changes$ = this.changed.asObservable();
    }
    /** Adds a tool. Throws `McpDefinitionError` for an invalid or duplicate definition. */
    registerTool(def, source = 'registerTool') {
        this.addTool(createToolEntry(def, source));
    }
    /** Adds an already-built tool entry (the explorer's path). */
    addTool(entry) {
        this.add(this.toolEntries, entry.tool.name, entry, 'tool', entry.source);
        this.changed.next('tools');
    }
    unregisterTool(name) {
        return this.remove(this.toolEntries, name, 'tools');
    }
    registerResource(def, source = 'registerResource') {
        this.addResource(createResourceEntry(def, source));
    }
    addResource(entry) {
        this.add(this.resourceEntries, entry.resource.uri, entry, 'resource', entry.source);
        this.changed.next('resources');
    }
    unregisterResource(uri) {
        return this.remove(this.resourceEntries, uri, 'resources');
    }
    registerResourceTemplate(def, source = 'registerResourceTemplate') {
        this.addResourceTemplate(createResourceTemplateEntry(def, source));
    }
    addResourceTemplate(entry) {
        const key = entry.template.uriTemplate;
        this.add(this.templateEntries, key, entry, 'resource template', entry.source);
        this.changed.next('resources');
    }
    unregisterResourceTemplate(uriTemplate) {
        return this.remove(this.templateEntries, uriTemplate, 'resources');
    }
    registerPrompt(def, source = 'registerPrompt') {
        this.addPrompt(createPromptEntry(def, source));
    }
    addPrompt(entry) {
        this.add(this.promptEntries, entry.prompt.name, entry, 'prompt', entry.source);
        this.changed.next('prompts');
    }
    unregisterPrompt(name) {
        return this.remove(this.promptEntries, name, 'prompts');
    }
    tool(name) {
        return this.toolEntries.get(name);
    }
    tools() {
        return [...this.toolEntries.values()];
    }
    resource(uri) {
        return this.resourceEntries.get(uri);
    }
    resources() {
        return [...this.resourceEntries.values()];
    }
    template(uriTemplate) {
        return this.templateEntries.get(uriTemplate);
    }
    templates() {
        return [...this.templateEntries.values()];
    }
    /** The first template (in registration order) whose pattern matches `uri`. */
    matchTemplate(uri) {
        for (const entry of this.templateEntries.values()) {
            const variables = entry.matcher.match(uri);
            if (variables)
                return { entry, variables };
        }
        return undefined;
    }
    prompt(name) {
        return this.promptEntries.get(name);
    }
    prompts() {
        return [...this.promptEntries.values()];
    }
    add(map, key, entry, kind, source) {
        if (map.has(key))
            throw new McpDefinitionError(kind, source, `"${key}" is already registered`);
        map.set(key, entry);
    }
    remove(map, key, kind) {
        const removed = map.delete(key);
        if (removed)
            this.changed.next(kind);
        return removed;
    }
};
McpRegistry = __decorate([
    Injectable()
], McpRegistry);
export { McpRegistry };
//# sourceMappingURL=mcp-registry.service.js.map