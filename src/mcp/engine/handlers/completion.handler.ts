import { Injectable } from '@nestjs/common';
import {
  CompleteRequestParamsSchema,
  PromptReferenceSchema,
  ResourceTemplateReferenceSchema,
} from '@modelcontextprotocol/core';
// Named imports, not the `z` namespace: a bundler must keep every export of a namespace it is
// handed, every locale included (some 10 MB of a fresh process), and can drop what is unnamed.
import { literal, object, string, union, type infer as Infer } from 'zod';
import { hasScopes } from '../../authentication/scopes.js';
import { contextOf } from '../../authorization/authorizer-context.js';
import { McpAuthorizationService } from '../../authorization/mcp-authorization.service.js';
import { ReadSeam } from '../../authorization/seam.decorators.js';
import { McpInvalidParamsError } from '../../core/errors/protocol.errors.js';
import type { McpCompleter } from '../../definitions/interfaces/mcp-context.interface.js';
import { McpRegistry } from '../../definitions/mcp-registry.service.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';

/** The spec's prompt and template references, plus `ref/tool` for tool arguments. */
const CompleteParamsSchema = CompleteRequestParamsSchema.extend({
  ref: union([
    PromptReferenceSchema,
    ResourceTemplateReferenceSchema,
    object({ type: literal('ref/tool'), name: string() }),
  ]),
});
type CompleteParams = Infer<typeof CompleteParamsSchema>;

/** The spec's cap on values per completion result. */
const MAX_VALUES = 100;

/**
 * `completion/complete`, behind the read seam. A reference the caller could
 * not otherwise see (a prompt the read seam would not let it get, a template
 * it would not let it list, a tool its authorizer hides) is -32602, the same
 * as an unknown one, so completion never enumerates what listing would not
 * show.
 */
@Injectable()
export class McpCompletionHandler {
  constructor(
    private readonly registry: McpRegistry,
    private readonly authorization: McpAuthorizationService,
  ) {}

  @McpMethod('completion/complete', CompleteParamsSchema)
  @ReadSeam()
  async complete(request: McpRequest<CompleteParams>): Promise<object> {
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

  private async completerFor(
    request: McpRequest<CompleteParams>,
  ): Promise<McpCompleter | undefined> {
    const { ref, argument } = request.params;
    switch (ref.type) {
      case 'ref/prompt': {
        const prompt = this.registry.prompt(ref.name);
        const seen =
          prompt &&
          (await this.readable(request, 'prompts/get', { name: ref.name, arguments: {} }));
        if (!seen) throw new McpInvalidParamsError(`Unknown prompt: ${ref.name}`);
        return prompt!.arguments.find((arg) => arg.name === argument.name)?.complete;
      }
      case 'ref/resource': {
        const template = this.registry.template(ref.uri);
        const seen = template && (await this.readable(request, 'resources/templates/list', {}));
        if (!seen) throw new McpInvalidParamsError(`Unknown resource template: ${ref.uri}`);
        return template!.completions[argument.name];
      }
      case 'ref/tool': {
        const tool = this.registry.tool(ref.name);
        const context = contextOf(request);
        const visible =
          tool &&
          hasScopes(tool.scopes, request.principal) &&
          (await this.authorization.isToolVisible(ref.name, tool.sensitive, context));
        if (!visible) throw new McpInvalidParamsError(`Unknown tool: ${ref.name}`);
        return tool.completions[argument.name];
      }
    }
  }

  /* Whether the read seam would show this caller the thing a reference names (no audit: not a read). */
  private async readable(
    request: McpRequest,
    method: string,
    args: Record<string, unknown>,
  ): Promise<boolean> {
    const context = contextOf(request, 'visibility');
    return (await this.authorization.decideRead(method, args, context)).kind === 'allow';
  }
}
