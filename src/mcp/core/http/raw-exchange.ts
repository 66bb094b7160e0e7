import type { IncomingMessage, ServerResponse } from 'node:http';
import { rememberClientAddress } from './client-address.js';

/** One HTTP exchange as the MCP endpoints serve it: Node's own request and response. */
export interface RawExchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}

/**
 * The Node request and response behind an adapter's (Express's are Node's
 * own; Fastify wraps them in `raw`). On Fastify the reply is hijacked: the
 * endpoint answers on the raw response, and Fastify must not answer too.
 * The client address the adapter resolved (`req.ip`, under the app's proxy
 * trust) is remembered for the Node request, where the quotas read it.
 */
export function rawExchange(req: object, res: object): RawExchange {
  const reply = res as { raw?: ServerResponse; hijack?: () => void };
  if (typeof reply.hijack === 'function') reply.hijack();
  const raw = (req as { raw?: IncomingMessage }).raw ?? (req as IncomingMessage);
  rememberClientAddress(raw, (req as { ip?: unknown }).ip);
  return { req: raw, res: reply.raw ?? (res as ServerResponse) };
}
