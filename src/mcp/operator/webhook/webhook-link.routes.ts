import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { rawExchange } from '../../transports/http/mount/raw-exchange.js';
import { McpWebhookLinkEndpoint } from './webhook-link.endpoint.js';
import { McpWebhookLinks } from './webhook-links.service.js';
import { MCP_WEBHOOK_SETTINGS, type McpWebhookSettings } from './webhook-settings.js';

type Handler = (req: object, res: object) => void;

interface FastifyLike {
  route(options: {
    method: string;
    url: string;
    handler: Handler;
    preParsing?: (req: object, reply: object, payload: unknown, done: unknown) => void;
  }): unknown;
}

/**
 * Mounts the link route on the HTTP adapter when `approvals.webhook` is set
 * (and only then): at module init, after Nest's routes and before its 404
 * handler, under the global prefix. Registered here rather than as a
 * controller because a controller is declared with the module, before
 * `forRootAsync` says whether there is a webhook at all.
 *
 * On Fastify the POST is answered from its `preParsing` stage: Fastify has
 * no form parser by default and would refuse the form with a 415; the
 * endpoint reads the one short field itself, bounded.
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
    if (adapter.getType() === 'fastify') {
      // A wildcard, not `:token`: Fastify refuses a parameter over 100 characters with a 414.
      const url = `${base}/*`;
      const fastify = adapter.getInstance<FastifyLike>();
      fastify.route({ method: 'GET', url, handler: serve });
      fastify.route({
        method: 'POST',
        url,
        // The reply is hijacked and answered here; the lifecycle goes no further.
        preParsing: (req, reply) => serve(req, reply),
        handler: () => undefined,
      });
    } else {
      adapter.get(`${base}/:token`, serve);
      adapter.post(`${base}/:token`, serve);
    }
  }
}
