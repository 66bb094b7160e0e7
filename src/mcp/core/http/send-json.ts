import type { ServerResponse } from 'node:http';
import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { endInTurn } from './end-in-turn.js';

/** The fields `sendJson` sets itself; a caller's own of the same name give way. */
const OWN_FIELDS = new Set(['content-type', 'content-length']);

/** The error message of an answer JSON.stringify refused, on every transport. */
export const UNWRITABLE_MESSAGE = 'Internal error: the answer could not be written as JSON';

/* The answer to a body JSON.stringify refused: a JSON-RPC internal error, with no id to give. */
const UNWRITABLE = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: { code: JsonRpcErrorCode.InternalError, message: UNWRITABLE_MESSAGE },
});

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
  let data: string;
  try {
    data = JSON.stringify(body);
  } catch {
    // A value JSON cannot carry (a getter or toJSON that throws): still an answer, never a hang.
    status = 500;
    data = UNWRITABLE;
  }
  /*
   * The header fields go as one flat list, not as an object spread from `headers` with the two
   * fields added after: V8 11 (Node 20) gives every object built that way a hidden class of its
   * own, about 1.3 µs a response, and Node's header writer then meets a new shape on every
   * call (docs/performance.md, "Hidden classes").
   */
  const fields: (string | number)[] = [
    'Content-Type',
    'application/json',
    'Content-Length',
    Buffer.byteLength(data),
  ];
  if (headers) {
    for (const name in headers) {
      if (!OWN_FIELDS.has(name.toLowerCase())) fields.push(name, headers[name]!);
    }
  }
  res.writeHead(status, fields);
  endInTurn(res, data);
}
