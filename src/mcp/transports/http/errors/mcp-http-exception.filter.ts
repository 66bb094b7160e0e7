import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { rawExchange } from '../../../core/http/raw-exchange.js';
import { sendHttpError } from './send-http-error.js';

/**
 * Whatever refuses a request on an MCP route before the endpoint runs (the
 * app's own HTTP guards, interceptors or pipes) is answered like the
 * endpoint's own refusals: its status with a JSON-RPC error body, which
 * dual-era clients read to tell a modern server from an old one.
 */
@Catch()
export class McpHttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('McpHttp');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const { res } = rawExchange(http.getRequest<object>(), http.getResponse<object>());
    sendHttpError(res, exception, this.logger);
  }
}
