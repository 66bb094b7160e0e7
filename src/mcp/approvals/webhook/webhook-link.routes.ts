import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ownBodiesUnder, postReadingOwnBody } from '../../core/http/own-body.routes.js';
import { rawExchange } from '../../core/http/raw-exchange.js';
import { McpWebhookLinkEndpoint } from './webhook-link.endpoint.js';
import { McpWebhookLinks } from './webhook-links.service.js';
import { MCP_WEBHOOK_SETTINGS, type McpWebhookSettings } from './webhook-settings.js';

type Handler = (req: object, res: object) => void;

/**
 * Mounts the link route on the HTTP adapter when `approvals.webhook` is set
 * (and only then): at module init, after Nest's routes and before its 404
 * handler, under the global prefix. Registered here rather than as a
 * controller because a controller is declared with the module, before
 * `forRootAsync` says whether there is a webhook at all.
 *
 * The POST's body is the endpoint's to read, bounded and once the link's
 * signature holds, so the app's body parsers are kept off it (and on
 * Fastify, which has no form parser by default and would refuse the form
 * with a 415, it is answered from its `preParsing` stage).
 */
@Injectable()
export class McpWebhookLinkRoutes implements OnModuleInit {
  constructor(
    @Inject(MCP_WEBHOOK_SETTINGS) private readonly settings: McpWebhookSettings | null,
    private readonly adapterHost: HttpAdapterHost,
    private readonly links: McpWebhookLinks,
    private readonly endpoint: McpWebhookLinkEndpoint,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!this.settings || !adapter) return;
    const base = this.links.routePath();
    const serve: Handler = (req, res) => {
      const raw = rawExchange(req, res);
      void this.endpoint.serve(raw.req, raw.res);
    };
    // A wildcard on Fastify, not `:token`: it refuses a parameter over 100 characters with a 414.
    const url = adapter.getType() === 'fastify' ? `${base}/*` : `${base}/:token`;
    adapter.get(url, serve);
    ownBodiesUnder(adapter, base);
    postReadingOwnBody(adapter, url, serve);
  }
}
