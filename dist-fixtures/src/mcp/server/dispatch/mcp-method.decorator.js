import { SetMetadata } from '@nestjs/common';
import { MCP_METHOD_METADATA } from '../../mcp.constants.js';
/**
 * Marks a server provider method as the handler of a JSON-RPC request method.
 * The dispatcher validates `params` against `params` (a schema from the
 * official MCP package) before guards run, so guards see well-formed input.
 *
 * @example
 * @McpMethod('prompts/get', GetPromptRequestParamsSchema)
 * @ReadSeam()
 * get(request: McpRequest<GetParams>) { ... }
 */
export const McpMethod = (method, params) => SetMetadata(MCP_METHOD_METADATA, { method, params });
//# sourceMappingURL=mcp-method.decorator.js.map