import type { IncomingMessage } from 'node:http';
import { JsonRpcErrorCode } from '../../../protocol/error-codes.constants.js';
import { McpHttpError } from '../errors/mcp-http.error.js';

/**
 * Reads and parses a JSON request body with a size bound. The body is read
 * from the stream (the app runs with Nest's body parser off); a body that an
 * upstream parser already decoded is taken as is.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const parsed = (req as { body?: unknown }).body;
  if (parsed !== undefined && typeof parsed === 'object' && !Buffer.isBuffer(parsed)) {
    return parsed;
  }
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new McpHttpError(415, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const body = await collect(req, maxBytes);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new McpHttpError(400, 'Parse error', JsonRpcErrorCode.ParseError);
  }
}

/* Collects at most `maxBytes`; past that the rest is drained and dropped, never buffered. */
function collect(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBytes) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => refused || resolve(Buffer.concat(chunks, size)));
    req.once('error', (error) => refused || reject(error));
  });
}

function tooLarge(maxBytes: number): McpHttpError {
  return new McpHttpError(413, `Payload Too Large: the limit is ${maxBytes} bytes`);
}
