import type { AbstractHttpAdapter } from '@nestjs/core';
import { requestPath } from './request-path.js';
import { bypassExpressParsers } from './express-parser-bypass.js';

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
 * Mounts a POST route whose handler reads its own body, bounded and after
 * its cheap checks (the console's, the webhook links'), on either adapter.
 * On Fastify it answers from the route's `preParsing` stage, before Fastify's
 * content-type parsers would read the body with no deadline (or refuse a
 * form with a 415); the reply is hijacked there and the lifecycle goes no
 * further. On Express the route is an ordinary one: `ownBodiesUnder` keeps
 * the app's parsers off it.
 */
export function postReadingOwnBody(adapter: AbstractHttpAdapter, url: string, handler: Handler) {
  if (adapter.getType() === 'fastify') {
    adapter.getInstance<FastifyLike>().route({
      method: 'POST',
      url,
      preParsing: (req, reply) => handler(req, reply),
      handler: () => undefined,
    });
  } else {
    adapter.post(url, handler);
  }
}

/**
 * On Express, keeps the app's body parsers off every path at or under
 * `base`: Express parses before it routes, so the parsers are told by path.
 * Compared without case, as Express matches routes. Fastify needs nothing
 * (see `postReadingOwnBody`).
 */
export function ownBodiesUnder(adapter: AbstractHttpAdapter, base: string): void {
  if (adapter.getType() !== 'express') return;
  const root = base.replace(/\/+$/, '').toLowerCase();
  bypassExpressParsers(adapter.getInstance(), (req) => {
    const path = requestPath(req).toLowerCase();
    return path === root || path.startsWith(root + '/');
  });
}
