import { All, Controller, Get, Post, Req, Res, UseFilters, type Type } from '@nestjs/common';
import { McpHttpExceptionFilter } from '../errors/mcp-http-exception.filter.js';
import { markMcpRoute } from './mcp-route.marker.js';
import { McpHttpRouter } from './mcp-http.router.js';

/** The controllers of one MCP module: the Streamable HTTP endpoint, and the 2024-11-05 SSE pair. */
export interface McpHttpControllers {
  readonly streamable: Type;
  readonly ssePair: Type;
}

/**
 * The MCP endpoints declared as ordinary Nest routes, so Nest places them:
 * the global prefix applies, the app's middleware and CORS run in front of
 * them, and the 404 handler stays behind them. Once registered, the adapter's
 * route binder serves them directly (see `McpRouteBinder`), because the app's
 * global guards, interceptors, pipes and filters are written for its REST
 * routes: they apply to tool, resource and prompt methods, never to the
 * protocol. The methods here serve only if no binder took the route.
 *
 * The classes are made per module: their paths come from the options, which
 * `forRootAsync` resolves after the module is declared, and their routes carry
 * the server's `routeId`, so with several servers each binder serves its own.
 */
export function createMcpHttpControllers(routeId: string): McpHttpControllers {
  @Controller()
  @UseFilters(McpHttpExceptionFilter)
  class McpStreamableHttpController {
    constructor(private readonly router: McpHttpRouter) {}

    @All()
    handle(@Req() req: object, @Res() res: object): Promise<void> {
      return this.router.serve('streamable', req, res);
    }
  }

  @Controller()
  @UseFilters(McpHttpExceptionFilter)
  class McpSsePairController {
    constructor(private readonly router: McpHttpRouter) {}

    @Get('sse')
    open(@Req() req: object, @Res() res: object): Promise<void> {
      return this.router.serve('sse', req, res);
    }

    @Post('messages')
    message(@Req() req: object, @Res() res: object): Promise<void> {
      return this.router.serve('messages', req, res);
    }
  }

  markMcpRoute(McpStreamableHttpController.prototype.handle, 'streamable', routeId);
  markMcpRoute(McpSsePairController.prototype.open, 'sse', routeId);
  markMcpRoute(McpSsePairController.prototype.message, 'messages', routeId);
  return { streamable: McpStreamableHttpController, ssePair: McpSsePairController };
}
