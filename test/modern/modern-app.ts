import { aborted as whenAborted } from 'node:util';
import { Injectable, type Provider } from '@nestjs/common';
import {
  Authorizers,
  McpPrompt,
  McpResource,
  McpTool,
  type Authorizer,
  type McpModuleOptions,
  type McpToolContext,
  type PromptMessage,
} from '../../src/index.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { createHttpApp, type HttpTestApp, type HttpVariant } from '../support/http-app.js';

/*
 * The fixture of the modern-era (2026-07-28) suites: a few tools, a resource
 * and a prompt, an authorizer whose answer for `purge` a test can flip
 * between rounds, and raw-client helpers that build the request envelope and
 * the routing headers a conforming modern client sends.
 */

export const MODERN = '2026-07-28';

/** The modern-era request envelope (`_meta`) a 2026-07-28 client sends. */
export function envelope(capabilities: object = {}, extra: Record<string, unknown> = {}) {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    ...extra,
  };
}

export const ELICIT = { elicitation: {} };
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';
export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';

/** The approval question (docs/approvals.md) for `tool`. */
export function approvalQuestion(tool: string, prompt: string) {
  return {
    method: 'elicitation/create',
    params: {
      message: prompt,
      requestedSchema: {
        type: 'object',
        properties: {
          approve: { type: 'boolean', description: `Approve running the ${tool} tool` },
        },
        required: ['approve'],
      },
    },
  };
}

/** The tool-deny result (docs/authorization.md). */
export function denial(tool: string, decision: 'deny' | 'ask', detail: string) {
  const body = { error: 'authorization_required', tool, decision, detail };
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
    isError: true,
  };
}

/** What the tools did; reset before every test with `resetFixture()`. */
export const runs = {
  purge: 0,
  wipe: 0,
  /** The signal of the `hold` call in progress, and what the test resolves it with. */
  hold: undefined as { signal: AbortSignal; aborted: Deferred<string> } | undefined,
  holding: deferred<void>(),
};

/** How the authorizer answers for `purge` and `wipe` (the rest is allowed). */
export const policy = { purge: 'ask' as 'ask' | 'allow' | 'deny' };

export function resetFixture(): void {
  runs.purge = 0;
  runs.wipe = 0;
  runs.hold = undefined;
  runs.holding = deferred<void>();
  policy.purge = 'ask';
}

export const PURGE_PROMPT = 'Purge everything?';
export const WIPE_PROMPT = 'Wipe the disk?';

/** `purge` and `wipe` ask (or what `policy` says for `purge`); every other tool is allowed. */
export const modernAuthorizer: Authorizer = (name) => {
  if (name === 'wipe') return { kind: 'ask', prompt: WIPE_PROMPT };
  if (name !== 'purge' || policy.purge === 'allow') return { kind: 'allow' };
  return policy.purge === 'ask'
    ? { kind: 'ask', prompt: PURGE_PROMPT }
    : { kind: 'deny', reason: 'purge is off' };
};

@Injectable()
export class ModernTools {
  @McpTool({
    description: 'Echo text',
    input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  })
  echo({ text }: { text: string }) {
    return `echo: ${text}`;
  }

  @McpTool({
    description: 'Deletes everything (asks first)',
    input: { type: 'object', properties: { scope: { type: 'string' } } },
  })
  purge({ scope }: { scope?: string }) {
    runs.purge++;
    return scope === undefined ? 'purged' : `purged ${scope}`;
  }

  @McpTool({ description: 'Wipes the disk (asks first)', input: { type: 'object' } })
  wipe() {
    runs.wipe++;
    return 'wiped';
  }

  @McpTool({ description: 'Asks the user for a name', input: { type: 'object' } })
  async greet(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicit('Your name?', {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    if (answer.action !== 'accept') return `no name (${answer.action})`;
    return `hello ${String(answer.content?.name)}`;
  }

  @McpTool({ description: 'Asks for a name, then a colour', input: { type: 'object' } })
  async survey(_args: object, ctx: McpToolContext) {
    const name = await ctx.elicit(
      'Name?',
      { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      { key: 'name' },
    );
    const colour = await ctx.elicit(
      'Colour?',
      { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] },
      { key: 'colour' },
    );
    return `${String(name.content?.name)} likes ${String(colour.content?.colour)}`;
  }

  @McpTool({ description: "Asks the client's model", input: { type: 'object' } })
  async draft(_args: object, ctx: McpToolContext) {
    const answer = await ctx.sample(
      { messages: [{ role: 'user', content: { type: 'text', text: 'Draft' } }], maxTokens: 5 },
      { key: 'draft' },
    );
    const content = answer.content as { text?: string };
    return `draft: ${content.text ?? ''}`;
  }

  @McpTool({ description: "Lists the client's roots", input: { type: 'object' } })
  async roots(_args: object, ctx: McpToolContext) {
    const { roots } = await ctx.listRoots({ key: 'roots' });
    return `roots: ${roots.map((root) => root.uri).join(', ')}`;
  }

  @McpTool({ description: 'Logs at every level', input: { type: 'object' } })
  chatty(_args: object, ctx: McpToolContext) {
    ctx.log('debug', 'a debug line');
    ctx.log('error', 'an error line');
    return 'done';
  }

  @McpTool({ description: 'Reports progress twice', input: { type: 'object' } })
  progressive(_args: object, ctx: McpToolContext) {
    ctx.progress(1, 2, 'half');
    ctx.progress(2, 2, 'all');
    return 'progressed';
  }

  @McpTool({ description: 'Waits until cancelled', input: { type: 'object' } })
  hold(_args: object, ctx: McpToolContext) {
    // Sent only when the request carries a progressToken: its answer is then an SSE stream.
    ctx.progress(1, undefined, 'holding');
    const aborted = deferred<string>();
    void whenAborted(ctx.signal, ctx.signal).then(() => aborted.resolve('aborted'));
    runs.hold = { signal: ctx.signal, aborted };
    runs.holding.resolve();
    return aborted.promise;
  }

  @McpTool({
    description: 'Routes by region and count (both mirrored in headers)',
    input: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        count: { type: 'integer', 'x-mcp-header': 'Count' },
      },
      required: ['region'],
    },
  })
  route({ region, count }: { region: string; count?: number }) {
    return count === undefined ? `region ${region}` : `region ${region} x${count}`;
  }
}

export const README_URI = 'modern://readme';

@Injectable()
export class ModernContent {
  @McpResource({ uri: README_URI, name: 'readme', mimeType: 'text/plain' })
  readme() {
    return 'read me';
  }

  @McpPrompt({
    name: 'summary',
    description: 'Summarise a topic',
    arguments: [{ name: 'topic', required: true, complete: 'completeTopic' }],
  })
  summary({ topic }: Record<string, string>): PromptMessage[] {
    return [{ role: 'user', content: { type: 'text', text: `Summarise ${topic}` } }];
  }

  @McpPrompt({ name: 'briefing', description: 'Asks who the briefing is for, then renders it' })
  async briefing(_args: Record<string, string>, ctx: McpToolContext): Promise<PromptMessage[]> {
    const answer = await ctx.elicit(
      'For whom?',
      { type: 'object', properties: { audience: { type: 'string' } }, required: ['audience'] },
      { key: 'audience' },
    );
    const audience = answer.action === 'accept' ? String(answer.content?.audience) : 'nobody';
    return [{ role: 'user', content: { type: 'text', text: `Brief ${audience}` } }];
  }

  completeTopic(prefix: string): string[] {
    return ['alpha', 'alpine', 'beta'].filter((topic) => topic.startsWith(prefix));
  }
}

export const MODERN_PROVIDERS: Provider[] = [ModernTools, ModernContent];

/** The options every modern suite starts from: both seams configured, `purge` asks. */
export const MODERN_OPTIONS: Partial<McpModuleOptions> = {
  authorizer: modernAuthorizer,
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
  requireAuthorization: false,
};

/** Boots the fixture over HTTP on `variant` (options override `MODERN_OPTIONS`). */
export function bootModernApp(
  variant: HttpVariant = 'express',
  options: Partial<McpModuleOptions> = {},
): Promise<HttpTestApp> {
  return createHttpApp({ ...MODERN_OPTIONS, ...options }, MODERN_PROVIDERS, variant);
}

/** The body field `Mcp-Name` mirrors, by method. */
const NAMED: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** The routing headers a conforming modern client sends with `method` and `params`. */
export function modernHeaders(method: string, params: Record<string, unknown> = {}) {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  const field = NAMED[method];
  if (field && typeof params[field] === 'string') headers['mcp-name'] = params[field];
  return headers;
}

/** A modern JSON-RPC request: `params` plus the envelope for `capabilities`. */
export function modernMessage(
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: object = {},
  meta: Record<string, unknown> = {},
) {
  return {
    jsonrpc: '2.0',
    id,
    method,
    params: { ...params, _meta: envelope(capabilities, meta) },
  };
}

/**
 * POSTs a modern request with the headers a conforming client sends
 * (`headers` override or, set to undefined, remove them).
 */
export function postModern(
  t: HttpTestApp,
  message: { method: string; params?: Record<string, unknown>; [field: string]: unknown },
  headers: Record<string, string | undefined> = {},
  abort?: AbortController,
): Promise<Response> {
  const merged: Record<string, string | undefined> = {
    ...modernHeaders(message.method, message.params),
    ...headers,
  };
  const sent = Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return t.post(message, sent, abort);
}

/** A modern request answered as plain JSON with HTTP 200: the parsed body. */
export async function modernJson(
  t: HttpTestApp,
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  capabilities: object = {},
): Promise<any> {
  const response = await postModern(t, modernMessage(id, method, params, capabilities));
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !type.startsWith('application/json')) {
    throw new Error(`${method}: HTTP ${response.status} ${type} ${await response.text()}`);
  }
  return response.json();
}

/**
 * `state` with one character of its JWE ciphertext changed: a character in
 * the middle of a base64url segment carries six whole bits, so the bytes
 * change (a segment's last character may carry padding bits only).
 */
export function tamper(state: string): string {
  const parts = state.split('.');
  const ciphertext = parts[3];
  const at = Math.floor(ciphertext.length / 2);
  const changed = ciphertext[at] === 'A' ? 'B' : 'A';
  parts[3] = ciphertext.slice(0, at) + changed + ciphertext.slice(at + 1);
  return parts.join('.');
}

/** A response's JSON body, for reading fields off it. */
export function readJson(response: Response): Promise<any> {
  return response.json();
}
