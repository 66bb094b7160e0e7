import { McpHttpError } from './mcp-http.error.js';

/**
 * The client went away before its request body was complete: nobody is left
 * to answer, and it is not the server's failure (logged at debug, not as an
 * error with a stack).
 */
export class McpClientGoneError extends McpHttpError {
  constructor() {
    super(400, 'Bad Request: the client closed the connection mid-upload');
    this.name = 'McpClientGoneError';
  }
}
