import { Injectable } from '@nestjs/common';
import { SsePairEndpoint } from '../sse-2024-11-05/sse-pair.endpoint.js';
import { McpStreamableHttpEndpoint } from '../streamable/streamable-http.endpoint.js';
import type { McpRouteKind } from './mcp-route.marker.js';
import { rawExchange } from '../../../core/http/raw-exchange.js';

/**
 * Serves one MCP route's request, whichever way it arrived: from the route
 * binder of the adapter (the normal path), or from the controller method (the
 * fallback when no binder recognised the route). Never rejects.
 */
@Injectable()
export class McpHttpRouter {
  constructor(
    private readonly streamable: McpStreamableHttpEndpoint,
    private readonly ssePair: SsePairEndpoint,
  ) {}

  serve(kind: McpRouteKind, req: object, res: object): Promise<void> {
    const exchange = rawExchange(req, res);
    switch (kind) {
      case 'streamable':
        return this.streamable.handle(exchange, req);
      case 'sse':
        return this.ssePair.open(exchange);
      case 'messages':
        return this.ssePair.message(exchange, req);
    }
  }
}
