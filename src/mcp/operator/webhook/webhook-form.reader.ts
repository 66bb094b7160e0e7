import type { IncomingMessage } from 'node:http';

/** A form is one short field: anything bigger is not ours. */
const MAX_FORM_BYTES = 8 * 1024;
const MAX_REASON_CHARS = 500;
const BODY_TIMEOUT_MS = 10_000;

/**
 * The `reason` field of a link's form POST, trimmed and cut to 500
 * characters: '' when absent, null when the body is too large, slow or not a
 * form. A body the app's parser (Express's urlencoded) already read is taken
 * as parsed.
 */
export async function readFormReason(req: IncomingMessage): Promise<string | null> {
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
  const text = await collect(req);
  if (text === null) return null;
  if (text === '') return '';
  if (type !== 'application/x-www-form-urlencoded') return null;
  return cut(new URLSearchParams(text).get('reason') ?? '');
}

function cut(reason: string): string {
  return reason.trim().slice(0, MAX_REASON_CHARS);
}

function collect(req: IncomingMessage): Promise<string | null> {
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: string | null) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (value === null) req.resume(); // drain, so the answer can still be sent
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_FORM_BYTES) finish(null);
      else chunks.push(chunk);
    };
    const onEnd = () => finish(Buffer.concat(chunks).toString('utf8'));
    const onError = () => finish(null);
    const timer = setTimeout(() => finish(null), BODY_TIMEOUT_MS).unref();
    req.on('data', onData).once('end', onEnd).once('error', onError);
  });
}
