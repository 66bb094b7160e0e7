import { Injectable } from '@nestjs/common';
import {
  Authorizers,
  McpTool,
  type Authorizer,
  type McpModuleOptions,
  type McpToolContext,
} from '../../src/index.js';
import { createHttpApp, type HttpVariant, type RawResponse } from '../support/http-app.js';
import { type SseEvent } from '../support/http-sse.js';
import { deferred } from '../support/deferred.js';

/*
 * The fixture app of the HTTP wire suites: Streamable HTTP (2025-11-25 session
 * rules), the HTTP+SSE pair, the Origin/Host policy and the network boot
 * guard, driven with raw fetch (and node:http where fetch cannot express the
 * request: a forged Host, no Accept).
 */

/** Tool runs, so a test can tell whether a tool body executed. */
export const runs: string[] = [];

/**
 * What `hold` waits on after its first progress (`gate`, a test resolves it) and
 * what it resolves once it has started (`started`: its progress is out). An
 * object, so a spec can renew both (`resetHold()`) through the import.
 */
export const hold = { gate: deferred(), started: deferred() };

export function resetHold(): void {
  hold.gate = deferred();
  hold.started = deferred();
}

@Injectable()
export class WireTools {
  @McpTool({
    description: 'Echo the text back',
    input: { type: 'object', properties: { text: { type: 'string' } } },
  })
  echo(args: { text?: string }) {
    return `echo: ${args.text ?? ''}`;
  }

  @McpTool({ description: 'Report three progress steps, then finish' })
  steps(_args: object, ctx: McpToolContext) {
    for (let step = 1; step <= 3; step++) ctx.progress(step, 3, `step ${step}`);
    return 'three steps done';
  }

  @McpTool({ description: 'Report progress, wait for the test, then say whether it was aborted' })
  async hold(_args: object, ctx: McpToolContext) {
    ctx.progress(1, 2, 'holding');
    hold.started.resolve();
    await hold.gate.promise;
    runs.push('hold');
    return `held (aborted: ${ctx.signal.aborted})`;
  }

  @McpTool({
    description: 'Drop the table (needs approval)',
    annotations: { destructiveHint: true },
  })
  drop_table() {
    runs.push('drop_table');
    return 'table dropped';
  }
}

export const toolPolicy: Authorizer = (name) =>
  name === 'drop_table' ? { kind: 'ask', prompt: 'Drop the whole table?' } : { kind: 'allow' };

export const BASE_OPTIONS: Partial<McpModuleOptions> = {
  authorizer: toolPolicy,
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
  requireAuthorization: true,
  elicitationTimeoutMs: 10_000,
};

export const MAX_BODY = 4096;

/** The bounds a test may lower. */
export type Bounds = { maxBodyBytes?: number; maxSessions?: number; sessionIdleMs?: number };

/**
 * Boots a wire test app on `adapter`; `bounds` (into `limits`) and `http` go on
 * top of the defaults used here.
 */
export function wireApp(
  adapter: HttpVariant,
  settings: { bounds?: Bounds; http?: McpModuleOptions['http'] } = {},
) {
  const limits = { maxBodyBytes: MAX_BODY, ...settings.bounds };
  const options: Partial<McpModuleOptions> = {
    ...BASE_OPTIONS,
    http: { retryMs: 1500, ...settings.http },
    limits,
  };
  return createHttpApp(options, [WireTools], adapter);
}

/**
 * The body every MCP refusal carries: a JSON-RPC error whose id is `id`. A
 * refusal made once the POST body was read names the request it refuses (its
 * id); one made before (or of a batch, a GET, a DELETE) has a null id.
 */
export function errorBody(
  code: number = expect.any(Number) as unknown as number,
  id: number | string | null = null,
) {
  return { jsonrpc: '2.0', id, error: { code, message: expect.any(String) } };
}

/**
 * Asserts a fetch response is `status` with a JSON-RPC error body (and `code`,
 * if given) whose id is `id` (null unless given).
 */
export async function expectRefusal(
  response: Response,
  status: number,
  code?: number,
  id: number | string | null = null,
): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await response.json()).toEqual(errorBody(code, id));
}

/** The same for a node:http response. */
export function expectRawRefusal(
  response: RawResponse,
  status: number,
  id: number | string | null = null,
): void {
  expect(response.status).toBe(status);
  expect(String(response.headers['content-type'])).toMatch(/^application\/json/);
  expect(JSON.parse(response.body)).toEqual(errorBody(undefined, id));
}

export const callTool = (id: number | string, name: string, extra: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});

export const withProgress = (token: string) => ({ _meta: { progressToken: token } });

export const isPriming = (event: SseEvent) => event.id !== undefined && event.data === '';

export const VISIBLE_ASCII = /^[\x21-\x7e]+$/;
