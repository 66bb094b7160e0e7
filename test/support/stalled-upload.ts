import { connect, type Socket } from 'node:net';

/** A raw POST whose body is sent only in part, and what the server did about it. */
export interface StalledUpload {
  readonly socket: Socket;
  /** The status code the server answered with (never settles if it did not answer). */
  readonly status: Promise<number>;
  /** Settles when the server closed the connection (or it broke). */
  readonly closed: Promise<void>;
}

/**
 * Sends a request head announcing `total` bytes of body, then only `part`,
 * and never the rest: what a slow or hostile uploader does. `localAddress`
 * picks the client address (a loopback one) the server keys quotas by.
 */
export function stalledUpload(
  port: number,
  path: string,
  headers: Record<string, string>,
  part: string,
  total: number,
  localAddress = '127.0.0.1',
): StalledUpload {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Content-Length: ${total}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  socket.write(head + part);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  const status = new Promise<number>((resolve) => {
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match) resolve(Number(match[1]));
    });
  });
  return { socket, status, closed };
}

/** `promise`, or a rejection naming `what` once `ms` passed first (an upper bound, not a wait). */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
