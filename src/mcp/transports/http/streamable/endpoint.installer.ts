import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { MCP_HTTP_OPTIONS, type ResolvedHttpOptions } from '../http-options.js';
import { McpStreamableHttpEndpoint } from './streamable-http.endpoint.js';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Puts the Streamable HTTP endpoint in front of the application's router on
 * the HTTP server: requests to the MCP path go straight to the endpoint, the
 * rest (health checks, the app's own controllers) to Nest as before.
 */
@Injectable()
export class McpEndpointInstaller implements OnApplicationBootstrap {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly endpoint: McpStreamableHttpEndpoint,
    @Inject(MCP_HTTP_OPTIONS) private readonly options: ResolvedHttpOptions,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || typeof server.listeners !== 'function') return;
    const path = this.options.path;
    const app = server.listeners('request') as RequestListener[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (isPath(req.url, path)) void this.endpoint.handle(req, res);
      else for (const listener of app) listener(req, res);
    });
  }
}

/** Whether `url` (path and query) is `path`, ignoring the query string. */
function isPath(url: string | undefined, path: string): boolean {
  if (!url || !url.startsWith(path)) return false;
  const next = url.charCodeAt(path.length);
  return Number.isNaN(next) || next === 63; /* ? */
}
