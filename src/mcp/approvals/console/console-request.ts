import type { IncomingMessage } from 'node:http';
import { requestPath } from '../../core/http/request-path.js';
import { MAX_DECISION_BODY_BYTES } from './console.constants.js';

/**
 * The console's base path as the browser sees it (global prefix included):
 * the request's path without its last `segments` segments, so links and the
 * redirect URI hold under any prefix the app sets.
 */
export function consoleBase(req: IncomingMessage, segments: number): string {
  let path = requestPath(req).replace(/\/+$/, '');
  for (let i = 0; i < segments; i++) path = path.slice(0, path.lastIndexOf('/'));
  return path;
}

/** The first value of a query parameter, if the request's URL has one. */
export function queryParam(req: IncomingMessage, name: string): string | undefined {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const query = url.indexOf('?');
  // Only the query is parsed: URLSearchParams takes any text, so no request line can throw here.
  return query === -1
    ? undefined
    : (new URLSearchParams(url.slice(query + 1)).get(name) ?? undefined);
}

/**
 * A path parameter the adapter matched (`:id`), from its request wrapper:
 * Express and Fastify both keep them, decoded, on `params`.
 */
export function routeParam(wrapper: object, name: string): string {
  const value = (wrapper as { params?: Record<string, unknown> }).params?.[name];
  return typeof value === 'string' ? value : '';
}

/** Whether the request comes from the console's own origin (a decision needs its `Origin`). */
export function sameOrigin(req: IncomingMessage, origin: string): boolean {
  return req.headers.origin === origin;
}

/**
 * The fields of a console POST's body, as `ConsoleBodyReader` left them on
 * the adapter's request (no fields when it was not worth reading). Nothing
 * here reads the socket: the body is read once, bounded, before the handler.
 */
export async function readFields(
  wrapper: object,
  _req: IncomingMessage,
): Promise<Record<string, unknown>> {
  const parsed = (wrapper as { body?: unknown }).body;
  return parsed === undefined || parsed === null ? {} : fieldsOfBody(parsed);
}

/**
 * The fields of a small body: an object an adapter parsed, or text (or its
 * bytes) holding a JSON object or a `text/plain` form (`name=value` lines:
 * what a form without script sends that every adapter accepts). Anything
 * else is no fields.
 */
export function fieldsOfBody(body: unknown): Record<string, unknown> {
  if (Buffer.isBuffer(body)) return fieldsOfBody(body.toString('utf8'));
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    return body as Record<string, unknown>;
  }
  if (typeof body !== 'string' || body.length > MAX_DECISION_BODY_BYTES) return {};
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      return fieldsOfBody(JSON.parse(text));
    } catch {
      return {};
    }
  }
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const eq = line.indexOf('=');
    if (eq > 0) fields[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return fields;
}
