import type { IncomingMessage, ServerResponse } from 'node:http';

/** One HTTP exchange as the MCP endpoints serve it: Node's own request and response. */
export interface RawExchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/**
 * The Node request and response behind an adapter's (Express's are Node's
 * own; Fastify wraps them in `raw`). On Fastify the reply is hijacked: the
 * endpoint answers on the raw response, and Fastify must not answer too.
 */
export function rawExchange(req: object, res: object): RawExchange {
  const reply = res as { raw?: ServerResponse; hijack?: () => void };
  if (typeof reply.hijack === 'function') reply.hijack();
  return {
    req: (req as { raw?: IncomingMessage }).raw ?? (req as IncomingMessage),
    res: reply.raw ?? (res as ServerResponse),
  };
}
