import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthorizationSettings } from '../../authorization/authorization-settings.interface.js';
import { Inject, Injectable } from '@nestjs/common';
import {
  GetPromptRequestParamsSchema,
  PaginatedRequestParamsSchema,
} from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { ReadSeam } from '../../authorization/seam.decorators.js';
import { answerableError } from '../elicitation/url-elicitation-required.refusal.js';
import { McpInvalidParamsError } from '../../core/errors/protocol.errors.js';
import { nextCursorOf, paginate } from '../../core/protocol/pagination.js';
import { McpRegistry } from '../../definitions/mcp-registry.service.js';
import { McpRequestContext } from '../context/request-context.js';
import { McpCallerCredentials } from '../context/caller-credentials.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { normalizePromptResult } from '../results/prompt-result.normalizer.js';

type ListParams = z.infer<typeof PaginatedRequestParamsSchema>;
type GetParams = z.infer<typeof GetPromptRequestParamsSchema>;

/** `prompts/list` and `prompts/get`, behind the read seam. */
@Injectable()
export class McpPromptsHandler {
  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings,
    private readonly credentials: McpCallerCredentials,
  ) {}

  @McpMethod('prompts/list', PaginatedRequestParamsSchema)
  @ReadSeam()
  list(request: McpRequest<ListParams>): object {
    const page = paginate(this.registry.prompts(), request.params?.cursor, this.options.pageSize);
    return { prompts: page.items.map((entry) => entry.prompt), ...nextCursorOf(page) };
  }

  @McpMethod('prompts/get', GetPromptRequestParamsSchema)
  @ReadSeam()
  async get(request: McpRequest<GetParams>): Promise<object> {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const entry = this.registry.prompt(name);
    if (!entry) throw new McpInvalidParamsError(`Unknown prompt: ${name}`);
    const missing = entry.arguments.filter((arg) => arg.required && args[arg.name] === undefined);
    if (missing.length > 0) {
      const names = missing.map((arg) => arg.name).join(', ');
      throw new McpInvalidParamsError(`Missing required arguments for prompt ${name}: ${names}`);
    }
    let values: Record<string, string> = args;
    if (entry.validate) {
      const checked = await entry.validate(args);
      if (!checked.ok) {
        throw new McpInvalidParamsError(`Invalid arguments for prompt ${name}: ${checked.message}`);
      }
      values = checked.value as Record<string, string>;
    }
    const context = new McpRequestContext(request, this.credentials);
    try {
      return normalizePromptResult(await entry.invoke(values, context), entry.prompt.description);
    } catch (error) {
      throw answerableError(error, request);
    } finally {
      context.end();
    }
  }
}
