import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { sendHttpError } from './send-http-error.js';

/** Turns whatever the MCP controller routes throw into a status with a JSON-RPC error body. */
@Catch()
export class McpHttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('McpHttp');

  catch(exception: unknown, host: ArgumentsHost): void {
    sendHttpError(host.switchToHttp().getResponse<ServerResponse>(), exception, this.logger);
  }
}
