import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../src/index.js';
import { modernMessage, postModern } from '../modern/modern-app.js';
import type { HttpTestApp } from '../support/http-app.js';

/*
 * Several callers of the webhook app over the real HTTP transport, in the
 * modern era: each is named by a header (a stand-in for a bearer token) and
 * calls `transfer` with raw JSON-RPC, so an ask answers input-required at
 * once and nothing parks.
 */

/** The header that names the caller. */
export const CALLER_HEADER = 'x-caller';

/** `http.authenticate` for the suites: the caller named by `x-caller`, else anonymous. */
export function authenticateByHeader(req: IncomingMessage): McpPrincipal | undefined {
  const subject = req.headers[CALLER_HEADER];
  return typeof subject === 'string' ? { subject, issuer: 'urn:test', scopes: [] } : undefined;
}

/** A client that can open a URL: an operator ask answers input-required, retried with state. */
const URL_ELICIT = { elicitation: { url: {} } };

let nextId = 0;

/**
 * One modern `transfer` call by `caller` (a retry when `requestState` is
 * given): the JSON-RPC answer. The transport must answer with HTTP 200.
 */
export async function modernTransfer(
  app: HttpTestApp,
  caller: string,
  args: Record<string, unknown> = {},
  requestState?: string,
): Promise<any> {
  const params = {
    name: 'transfer',
    arguments: { amount: 500, by: caller, ...args },
    ...(requestState !== undefined ? { requestState } : {}),
  };
  const response = await postModern(
    app,
    modernMessage(++nextId, 'tools/call', params, URL_ELICIT),
    { [CALLER_HEADER]: caller },
  );
  if (response.status !== 200) throw new Error(`transfer by ${caller}: HTTP ${response.status}`);
  return response.json();
}
