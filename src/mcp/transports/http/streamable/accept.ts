import type { IncomingMessage } from 'node:http';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';

/** 406 unless the request's `Accept` lists every media type in `types` (or a wildcard). */
export function requireAccept(req: IncomingMessage, types: string[]): void {
  const accept = (req.headers.accept ?? '').toLowerCase();
  if (accept.includes('*/*')) return;
  for (const type of types) {
    if (!accept.includes(type)) {
      throw new McpHttpError(406, `Not Acceptable: Accept must include ${types.join(' and ')}`);
    }
  }
}

/* The first media range's type (before any `;` or `,`) is text/event-stream, in any case. */
const EVENT_STREAM_FIRST = /^\s*text\/event-stream\s*(?:[;,]|$)/i;

/**
 * Whether the client lists `text/event-stream` first in `Accept`: it would
 * rather read a POST's answer as a stream (resumable, with event ids) than
 * as plain JSON, which the server otherwise answers with while nothing else
 * has to be streamed.
 */
export function prefersEventStream(req: IncomingMessage): boolean {
  // One regular expression, not a split of the header twice: this runs on every POST.
  return EVENT_STREAM_FIRST.test(req.headers.accept ?? '');
}
