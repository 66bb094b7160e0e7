import {
  ElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema,
} from '@modelcontextprotocol/core';
import { randomUUID } from 'node:crypto';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
} from '../../protocol/mcp-types.js';
import type { McpToolContext } from '../../registry/interfaces/mcp-context.interface.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { McpToolError } from '../tools/mcp-tool.error.js';

type ClientRequests = Pick<McpToolContext, 'elicit' | 'elicitUrl' | 'sample' | 'listRoots'>;

/** Whether the caller's client declared elicitation in `mode` (`{}` means form, spec 2025-11-25). */
export function canElicit(request: McpRequest, mode: 'form' | 'url'): boolean {
  const declared = request.connection.capabilities?.elicitation as
    Record<string, unknown> | undefined;
  if (!declared) return false;
  if (mode === 'form' && Object.keys(declared).length === 0) return true;
  return declared[mode] !== undefined;
}

/**
 * The server→client requests a handler may make, each only if the caller's
 * client declared the capability at `initialize` (spec: never use a
 * capability the client did not declare). A missing capability is a clear
 * tool error, never a request the client cannot answer.
 */
export function clientRequestsFor(request: McpRequest): ClientRequests {
  const declared = (capability: 'elicitation' | 'sampling' | 'roots', mode?: 'form' | 'url') => {
    const ok = mode
      ? canElicit(request, mode)
      : request.connection.capabilities?.[capability] !== undefined;
    if (!ok) {
      const what = mode === 'url' ? 'URL-mode elicitation' : `the ${capability} capability`;
      throw new McpToolError(`The client did not declare ${what}`);
    }
  };
  return {
    async elicit(message, requestedSchema): Promise<ElicitResult> {
      declared('elicitation', 'form');
      const params = { message, requestedSchema };
      const checked = ElicitRequestFormParamsSchema.safeParse(params);
      if (!checked.success) {
        throw new TypeError(`elicit(): requestedSchema is outside the spec's primitive subset`);
      }
      return (await request.requestClient('elicitation/create', params)) as ElicitResult;
    },
    async elicitUrl(message: string, url: string): Promise<ElicitResult> {
      declared('elicitation', 'url');
      const params = { mode: 'url' as const, message, url, elicitationId: randomUUID() };
      if (!ElicitRequestURLParamsSchema.safeParse(params).success) {
        throw new TypeError('elicitUrl(): url must be a valid URL');
      }
      return (await request.requestClient('elicitation/create', params)) as ElicitResult;
    },
    async sample(params: CreateMessageParams): Promise<CreateMessageResult> {
      declared('sampling');
      return (await request.requestClient('sampling/createMessage', params)) as CreateMessageResult;
    },
    async listRoots(): Promise<ListRootsResult> {
      declared('roots');
      return (await request.requestClient('roots/list', {})) as ListRootsResult;
    },
  };
}
