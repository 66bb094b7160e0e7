var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { ForbiddenException, Injectable, Logger } from '@nestjs/common';
import { McpToolDeniedException } from '../../authorizer/authorization.exceptions.js';
import { createRequestScope } from '../context/request-context.factory.js';
import { normalizeToolResult, toolErrorResult } from '../results/tool-result.normalizer.js';
import { McpOutboundRequestError } from '../outbound/outbound-request.errors.js';
import { McpToolError } from './mcp-tool.error.js';
/**
 * Runs a tool that has passed its seam: validates the arguments against its
 * input contract, calls it with a request context, shapes the result and
 * checks it against the output schema. Every failure is an `isError` result
 * (spec: tool execution errors are results, not protocol errors).
 */
let McpToolInvoker = class McpToolInvoker {
    constructor() {
        this.logger = new Logger('McpTools');
    }
    async run(entry, args, request) {
        const name = entry.tool.name;
        const input = await entry.input.validate(args);
        if (!input.ok)
            return toolErrorResult(`Invalid arguments for tool ${name}: ${input.message}`);
        const scope = createRequestScope(request);
        let result;
        try {
            result = normalizeToolResult(await entry.invoke(input.value, scope.context));
        }
        catch (error) {
            return this.failure(name, error);
        }
        finally {
            scope.end();
        }
        if (entry.output && !result.isError) {
            const problem = entry.output(result.structuredContent);
            if (problem !== undefined) {
                this.logger.error(`Tool ${name} returned output that fails its outputSchema: ${problem}`);
                return toolErrorResult(`Tool ${name} produced invalid output`);
            }
        }
        return result;
    }
    failure(name, error) {
        if (error instanceof McpToolError)
            return toolErrorResult(error.message);
        // A server→client request the tool made ended without an answer (timeout, closed, ...).
        if (error instanceof McpOutboundRequestError)
            return toolErrorResult(`Tool ${name}: ${error.message}`);
        if (error instanceof McpToolDeniedException)
            throw error;
        // A user's own guard on the tool method returned false.
        if (error instanceof ForbiddenException)
            throw new McpToolDeniedException(name, 'deny', 'forbidden');
        this.logger.error(`Tool ${name} failed: ${error?.stack ?? String(error)}`);
        return toolErrorResult(`Tool ${name} failed`);
    }
};
McpToolInvoker = __decorate([
    Injectable()
], McpToolInvoker);
export { McpToolInvoker };
//# sourceMappingURL=tool-invoker.service.js.map