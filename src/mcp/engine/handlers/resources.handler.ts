import { MCP_OPTIONS } from '../../core/options/options.constants.js';
import type { McpAuthorizationSettings } from '../../authorization/authorization-settings.interface.js';
import { Inject, Injectable } from '@nestjs/common';
import {
  PaginatedRequestParamsSchema,
  ReadResourceRequestParamsSchema,
  SubscribeRequestParamsSchema,
  UnsubscribeRequestParamsSchema,
} from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { ReadSeam } from '../../authorization/seam.decorators.js';
import { answerableError } from '../elicitation/url-elicitation-required.refusal.js';
import { McpResourceNotFoundError } from '../../core/errors/protocol.errors.js';
import { nextCursorOf, paginate } from '../../core/protocol/pagination.js';
import { McpRegistry } from '../../definitions/mcp-registry.service.js';
import { McpRequestContext } from '../context/request-context.js';
import { McpCallerCredentials } from '../context/caller-credentials.js';
import { McpMethod } from '../dispatch/mcp-method.decorator.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { normalizeResourceResult } from '../results/resource-result.normalizer.js';

type ListParams = z.infer<typeof PaginatedRequestParamsSchema>;
type UriParams = z.infer<typeof ReadResourceRequestParamsSchema>;

/** Resource listing, reading and subscriptions; every method is behind the read seam. */
@Injectable()
export class McpResourcesHandler {
  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_OPTIONS) private readonly options: McpAuthorizationSettings,
    private readonly credentials: McpCallerCredentials,
  ) {}

  @McpMethod('resources/list', PaginatedRequestParamsSchema)
  @ReadSeam()
  list(request: McpRequest<ListParams>): object {
    const entries = this.registry.resources();
    const page = paginate(entries, request.params?.cursor, this.options.pageSize);
    return { resources: page.items.map((entry) => entry.resource), ...nextCursorOf(page) };
  }

  @McpMethod('resources/templates/list', PaginatedRequestParamsSchema)
  @ReadSeam()
  listTemplates(request: McpRequest<ListParams>): object {
    const entries = this.registry.templates();
    const page = paginate(entries, request.params?.cursor, this.options.pageSize);
    return { resourceTemplates: page.items.map((entry) => entry.template), ...nextCursorOf(page) };
  }

  @McpMethod('resources/read', ReadResourceRequestParamsSchema)
  @ReadSeam()
  async read(request: McpRequest<UriParams>): Promise<object> {
    const { uri } = request.params;
    const resource = this.registry.resource(uri);
    const matched = resource ? undefined : this.registry.matchTemplate(uri);
    if (!resource && !matched) throw new McpResourceNotFoundError(uri);
    const context = new McpRequestContext(request, this.credentials);
    try {
      const value = resource
        ? await resource.invoke(uri, {}, context)
        : await matched!.entry.invoke(uri, matched!.variables, context);
      const mimeType = resource ? resource.resource.mimeType : matched!.entry.template.mimeType;
      return normalizeResourceResult(value, uri, mimeType);
    } catch (error) {
      throw answerableError(error, request);
    } finally {
      context.end();
    }
  }

  @McpMethod('resources/subscribe', SubscribeRequestParamsSchema)
  @ReadSeam()
  subscribe({ params, connection }: McpRequest<UriParams>): object {
    connection.subscriptions.add(params.uri);
    return {};
  }

  @McpMethod('resources/unsubscribe', UnsubscribeRequestParamsSchema)
  @ReadSeam()
  unsubscribe({ params, connection }: McpRequest<UriParams>): object {
    connection.subscriptions.delete(params.uri);
    return {};
  }
}
