import {
  Catch,
  HttpException,
  Logger,
  type ArgumentsHost,
  type ExceptionFilter,
} from '@nestjs/common';
import type { Response } from 'express';
import { JsonRpcErrorCode } from '../../../protocol/error-codes.constants.js';
import { McpHttpError } from './mcp-http.error.js';

/**
 * Turns whatever the MCP routes throw into a status with a JSON-RPC error
 * body. Anything unexpected is a 500 with no internal text.
 */
@Catch()
export class McpHttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('McpHttp');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const error = toHttpError(exception);
    if (error.status >= 500) this.logger.error((exception as Error)?.stack ?? String(exception));
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(error.status).json(error.toBody());
  }
}

function toHttpError(exception: unknown): McpHttpError {
  if (exception instanceof McpHttpError) return exception;
  if (exception instanceof HttpException && exception.getStatus() < 500) {
    return new McpHttpError(exception.getStatus(), exception.message);
  }
  return new McpHttpError(500, 'Internal error', JsonRpcErrorCode.InternalError);
}
