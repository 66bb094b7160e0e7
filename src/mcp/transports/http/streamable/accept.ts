import type { IncomingMessage } from 'node:http';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';

/** 406 unless the request's `Accept` lists every media type in `types` (or a wildcard). */
export function requireAccept(req: IncomingMessage, types: string[]): void {
  const accept = (req.headers.accept ?? '').toLowerCase();
  if (accept.includes('*/*')) return;
  const missing = types.filter((type) => !accept.includes(type));
  if (missing.length > 0) {
    throw new McpHttpError(406, `Not Acceptable: Accept must include ${types.join(' and ')}`);
  }
}

/**
 * Whether the client lists `text/event-stream` first in `Accept`: it would
 * rather read a POST's answer as a stream (resumable, with event ids) than
 * as plain JSON, which the server otherwise answers with while nothing else
 * has to be streamed.
 */
export function prefersEventStream(req: IncomingMessage): boolean {
  const first = (req.headers.accept ?? '').split(',')[0] ?? '';
  return first.split(';')[0].trim().toLowerCase() === 'text/event-stream';
}
