import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/core';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
} from '../../protocol/mcp-types.js';
import type { McpToolContext } from '../../registry/interfaces/mcp-context.interface.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { McpToolError } from '../tools/mcp-tool.error.js';

type ClientRequests = Pick<McpToolContext, 'elicit' | 'sample' | 'listRoots'>;

/**
 * The server→client requests a handler may make, each only if the caller's
 * client declared the capability at `initialize` (spec: never use a
 * capability the client did not declare). A missing capability is a clear
 * tool error, never a request the client cannot answer.
 */
export function clientRequestsFor(request: McpRequest): ClientRequests {
  const declared = (capability: 'elicitation' | 'sampling' | 'roots') => {
    if (request.connection.capabilities?.[capability] === undefined) {
      throw new McpToolError(`The client did not declare the ${capability} capability`);
    }
  };
  return {
    async elicit(message, requestedSchema): Promise<ElicitResult> {
      declared('elicitation');
      const params = { message, requestedSchema };
      const checked = ElicitRequestFormParamsSchema.safeParse(params);
      if (!checked.success) {
        throw new TypeError(`elicit(): requestedSchema is outside the spec's primitive subset`);
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
