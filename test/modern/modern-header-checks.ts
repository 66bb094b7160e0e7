import type { HttpTestApp, HttpVariant } from '../support/http-app.js';
import { bootModernApp, readJson, resetFixture, SERVER_INFO_KEY } from './modern-app.js';

/* What the modern header specs share: argument builders and the two answers they expect. */

export const b64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
export const echo = (text = 'a') => ({ name: 'echo', arguments: { text } });
export const route = (args: Record<string, unknown>) => ({ name: 'route', arguments: args });

/** A -32020 error body for request `id`, with the mismatch the server names. */
export function headerMismatch(id: number | string, header: string, body: string) {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: -32020,
      message: `Bad Request: the request headers and body disagree: ${body}`,
      data: { mismatch: { header, body } },
    },
  };
}

/** A refusal before anything runs: `status`, a JSON-RPC error body, no session minted. */
export async function expectRefusal(response: Response, status: number, body: object) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('mcp-session-id')).toBeNull();
  expect(await readJson(response)).toEqual(body);
}

/** The `echo` tool's modern answer to request `id`. */
export async function expectEcho(response: Response, id: number | string, text = 'a') {
  expect(response.status).toBe(200);
  expect(await readJson(response)).toEqual({
    jsonrpc: '2.0',
    id,
    result: {
      content: [{ type: 'text', text: `echo: ${text}` }],
      resultType: 'complete',
      _meta: { [SERVER_INFO_KEY]: { name: 'http-test', version: '1.0.0' } },
    },
  });
}

/** The modern fixture app on `variant`, booted once for the enclosing suite; read it in tests. */
export function modernAppForSuite(variant: HttpVariant): () => HttpTestApp {
  let t: HttpTestApp | undefined;
  beforeAll(async () => {
    t = await bootModernApp(variant);
  });
  afterAll(() => t?.close());
  beforeEach(() => resetFixture());
  return () => t!;
}
