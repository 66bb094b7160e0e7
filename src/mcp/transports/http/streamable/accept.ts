import type { IncomingMessage } from 'node:http';
import { McpHttpError } from '../errors/mcp-http.error.js';

/** 406 unless the request's `Accept` lists every media type in `types` (or a wildcard). */
export function requireAccept(req: IncomingMessage, types: string[]): void {
  const accept = (req.headers.accept ?? '').toLowerCase();
  if (accept.includes('*/*')) return;
  const missing = types.filter((type) => !accept.includes(type));
  if (missing.length > 0) {
    throw new McpHttpError(406, `Not Acceptable: Accept must include ${types.join(' and ')}`);
  }
}
