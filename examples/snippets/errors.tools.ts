import { Injectable, NotFoundException } from '@nestjs/common';
import { McpTool, McpToolError, McpWardenError } from '../../src/index.js';

const ID_INPUT = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };

/** How what a tool throws reaches the client. */
@Injectable()
export class ErrorTools {
  @McpTool({ description: 'McpToolError: an isError result with this text', inputSchema: ID_INPUT })
  toolError({ id }: { id: string }) {
    throw new McpToolError(`No invoice ${id}`);
  }

  @McpTool({ description: 'McpWardenError: a JSON-RPC error with its code', inputSchema: ID_INPUT })
  protocolError({ id }: { id: string }) {
    throw new McpWardenError(-32602, `Malformed invoice id ${id}`, { id });
  }

  @McpTool({
    description: 'HttpException: an isError result with its message',
    inputSchema: ID_INPUT,
  })
  httpError({ id }: { id: string }) {
    throw new NotFoundException(`Invoice ${id} is archived`);
  }

  @McpTool({
    description: 'Anything else: a generic isError result, logged',
    inputSchema: ID_INPUT,
  })
  crash() {
    throw new Error('connection string postgres://admin:secret@db'); // never sent to the client
  }
}
