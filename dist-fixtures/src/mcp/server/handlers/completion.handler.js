var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
var __metadata = (this && this.__metadata) || function (k, v) {
    if (typeof Reflect === "object" && typeof Reflect.metadata === "function") return Reflect.metadata(k, v);
};
import { Injectable } from '@nestjs/common';
import { CompleteRequestParamsSchema, PromptReferenceSchema, ResourceTemplateReferenceSchema, } from '@modelcontextprotocol/core';
import { z } from 'zod';
import { McpAuthorizationService } from '../../authorizer/mcp-authorization.service.js';
import { ReadSeam } from '../../authorizer/seam.decorators.js';
import { McpInvalidParamsError } from '../../protocol/mcp.errors.js';
import { McpRegistry } from '../../registry/mcp-registry.service.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
/** The spec's prompt and template references, plus `ref/tool` for tool arguments. */
const CompleteParamsSchema = CompleteRequestParamsSchema.extend({
    ref: z.union([
        PromptReferenceSchema,
        ResourceTemplateReferenceSchema,
        z.object({ type: z.literal('ref/tool'), name: z.string() }),
    ]),
});
/** The spec's cap on values per completion result. */
const MAX_VALUES = 100;
/**
 * `completion/complete`, behind the read seam. A reference the caller could
 * not otherwise see (an unknown prompt or template, a tool its authorizer
 * hides) is -32602, the same as an unknown one, so completion never
 * enumerates what listing would not show.
 */
let McpCompletionHandler = class McpCompletionHandler {
    constructor(registry, authorization) {
        this.registry = registry;
        this.authorization = authorization;
    }
    async complete(request) {
        const { argument, context } = request.params;
        const completer = await this.completerFor(request);
        const values = completer
            ? await completer(argument.value, { arguments: context?.arguments ?? {} })
            : [];
        const strings = Array.isArray(values) ? values.filter((v) => typeof v === 'string') : [];
        return {
            completion: {
                values: strings.slice(0, MAX_VALUES),
                total: strings.length,
                hasMore: strings.length > MAX_VALUES,
            },
        };
    }
    async completerFor(request) {
        const { ref, argument } = request.params;
        switch (ref.type) {
            case 'ref/prompt': {
                const prompt = this.registry.prompt(ref.name);
                if (!prompt)
                    throw new McpInvalidParamsError(`Unknown prompt: ${ref.name}`);
                return prompt.arguments.find((arg) => arg.name === argument.name)?.complete;
            }
            case 'ref/resource': {
                const template = this.registry.template(ref.uri);
                if (!template)
                    throw new McpInvalidParamsError(`Unknown resource template: ${ref.uri}`);
                return template.completions[argument.name];
            }
            case 'ref/tool': {
                const tool = this.registry.tool(ref.name);
                const context = { connId: request.connection.id, transport: request.transport };
                const visible = tool &&
                    (await this.authorization.decideTool(ref.name, {}, context, tool.sensitive)).kind !==
                        'deny';
                if (!visible)
                    throw new McpInvalidParamsError(`Unknown tool: ${ref.name}`);
                return tool.completions[argument.name];
            }
        }
    }
};
__decorate([
    McpMethod('completion/complete', CompleteParamsSchema),
    ReadSeam(),
    __metadata("design:type", Function),
    __metadata("design:paramtypes", [Object]),
    __metadata("design:returntype", Promise)
], McpCompletionHandler.prototype, "complete", null);
McpCompletionHandler = __decorate([
    Injectable(),
    __metadata("design:paramtypes", [McpRegistry,
        McpAuthorizationService])
], McpCompletionHandler);
export { McpCompletionHandler };
//# sourceMappingURL=completion.handler.js.map