import type { IncomingMessage } from 'node:http';
import { quotaKeyOf } from '../../authentication/quota-key.js';
import type { McpBodyReader } from '../../core/http/body-reader.service.js';

/** A form is one short field: anything bigger is not ours. */
const MAX_FORM_BYTES = 8 * 1024;
const MAX_REASON_CHARS = 500;

/**
 * The `reason` field of a link's form POST, trimmed and cut to 500
 * characters: '' when absent, null when the body is not a form. The body is
 * read by the shared reader, as the MCP endpoint's is: past 8 KiB, past
 * `limits.bodyTimeoutMs` or past the shared budget it throws the reader's
 * refusal (`McpHttpError` 413, 408, 429 or 503). A body an upstream parser
 * already read is taken as parsed.
 */
export async function readFormReason(
  req: IncomingMessage,
  bodies: McpBodyReader,
): Promise<string | null> {
  const parsed = (req as { body?: unknown }).body;
  if (
    parsed !== undefined &&
    parsed !== null &&
    typeof parsed === 'object' &&
    !Buffer.isBuffer(parsed)
  ) {
    const reason = (parsed as Record<string, unknown>).reason;
    if (reason === undefined) return '';
    return typeof reason === 'string' ? cut(reason) : null;
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const bytes = await bodies.readBytes(req, quotaKeyOf(undefined, req, 'link'), MAX_FORM_BYTES);
  const text = bytes.toString('utf8');
  if (text === '') return '';
  if (type !== 'application/x-www-form-urlencoded') return null;
  return cut(new URLSearchParams(text).get('reason') ?? '');
}

function cut(reason: string): string {
  return reason.trim().slice(0, MAX_REASON_CHARS);
}
