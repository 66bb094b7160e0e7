import { All, Controller, Get, Post, Req, Res, UseFilters, type Type } from '@nestjs/common';
import { McpHttpExceptionFilter } from '../errors/mcp-http-exception.filter.js';
import { LegacySseEndpoint } from '../legacy/legacy-sse.endpoint.js';
import { McpStreamableHttpEndpoint } from '../streamable/streamable-http.endpoint.js';
import { markMcpRoute } from './mcp-route.marker.js';
import { rawExchange } from './raw-exchange.js';

/** The controllers of one MCP module: the Streamable HTTP endpoint, and the legacy SSE pair. */
export interface McpHttpControllers {
  readonly streamable: Type;
  readonly legacy: Type;
}

/**
 * The MCP endpoints as ordinary Nest routes, so the app's middleware, global
 * prefix, CORS and HTTP-level guards apply to them as to any controller. The
 * classes are made per module: the Streamable path comes from the options,
 * which `forRootAsync` resolves only after the module is declared (see
 * `McpHttpRoutes`). The handlers take the adapter's request and response and
 * serve them on the Node objects underneath.
 */
export function createMcpHttpControllers(): McpHttpControllers {
  @Controller()
  @UseFilters(McpHttpExceptionFilter)
  class McpStreamableHttpController {
    constructor(private readonly endpoint: McpStreamableHttpEndpoint) {}

    @All()
    handle(@Req() req: object, @Res() res: object): Promise<void> {
      return this.endpoint.handle(rawExchange(req, res), req);
    }
  }

  @Controller()
  @UseFilters(McpHttpExceptionFilter)
  class McpLegacySseController {
    constructor(private readonly endpoint: LegacySseEndpoint) {}

    @Get('sse')
    open(@Req() req: object, @Res() res: object): void {
      this.endpoint.open(rawExchange(req, res));
    }

    @Post('messages')
    message(@Req() req: object, @Res() res: object): Promise<void> {
      return this.endpoint.message(rawExchange(req, res), req);
    }
  }

  for (const method of [
    McpStreamableHttpController.prototype.handle,
    McpLegacySseController.prototype.open,
    McpLegacySseController.prototype.message,
  ]) {
    markMcpRoute(method);
  }
  return { streamable: McpStreamableHttpController, legacy: McpLegacySseController };
}
