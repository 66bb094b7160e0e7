import type { ServerResponse } from 'node:http';
import { endInTurn } from './end-in-turn.js';

/**
 * Writes a JSON body with its length (one write, no chunked encoding), at the end of this turn
 * of the event loop with the other responses finished in it (end-in-turn.ts). The status and
 * headers are set at once: `headersSent` is true on return.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  const data = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(data),
  });
  endInTurn(res, data);
}
