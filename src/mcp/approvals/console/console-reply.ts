import type { ServerResponse } from 'node:http';
import { consoleHeaders } from './console-headers.js';

/** Sends a complete console response with the security headers. */
export function reply(
  res: ServerResponse,
  status: number,
  type: 'html' | 'json' | 'js' | 'css',
  body: string,
  headers: Record<string, string | string[]> = {},
): void {
  const types = {
    html: 'text/html; charset=utf-8',
    json: 'application/json',
    js: 'text/javascript; charset=utf-8',
    css: 'text/css; charset=utf-8',
  };
  res.writeHead(status, {
    ...consoleHeaders(),
    ...headers,
    'Content-Type': types[type],
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Sends a JSON body. */
export function replyJson(res: ServerResponse, status: number, body: unknown): void {
  reply(res, status, 'json', JSON.stringify(body));
}

/** Redirects (303: the next request is a GET whatever this one was). */
export function redirect(
  res: ServerResponse,
  location: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(303, { ...consoleHeaders(), ...headers, Location: location, 'Content-Length': 0 });
  res.end();
}
