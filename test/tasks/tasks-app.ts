import { Injectable, type Provider } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createTaskSessionFromClient,
  type ApplicationInputRequest,
  type TaskEnabledSession,
} from '@modelcontextprotocol/ext-tasks/client';
import {
  Authorizers,
  JsonRpcErrorCode,
  McpTool,
  McpWardenError,
  type Authorizer,
  type McpModuleOptions,
  type McpToolContext,
} from '../../src/index.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { createHttpApp, type HttpTestApp, type HttpVariant } from '../support/http-app.js';

/*
 * The tasks suites' app (docs/tasks.md): tools that run as tasks, held open by the test
 * (a gate it opens), never by a timer, and the official tasks client (ext-tasks) over the
 * official SDK v2 client to drive them.
 */

export const MODERN = '2026-07-28';
export const TASKS = 'io.modelcontextprotocol/tasks';
export const WITH_TASKS = { elicitation: {}, extensions: { [TASKS]: {} } };

/** What the tools saw, and the gates that hold them. */
export const seen = {
  runs: 0,
  aborted: 0,
  gate: deferred(),
};

export function resetSeen(): void {
  seen.runs = 0;
  seen.aborted = 0;
  seen.gate = deferred();
}

/* Resolves when the test opens the gate; rejects (and counts) when the task is cancelled. */
function held(gate: Deferred<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    signal.addEventListener(
      'abort',
      () => {
        seen.aborted += 1;
        reject(signal.reason);
      },
      { once: true },
    );
    void gate.promise.then(resolve);
  });
}

const REPORT_INPUT = {
  type: 'object',
  properties: { title: { type: 'string', minLength: 1 } },
  required: ['title'],
};

@Injectable()
export class TaskTools {
  @McpTool({
    name: 'build_report',
    description:
      'Builds a report once the test opens the gate; a task when the caller can take one.',
    inputSchema: REPORT_INPUT,
    task: 'optional',
  })
  async buildReport({ title }: { title: string }, ctx: McpToolContext) {
    seen.runs += 1;
    await Promise.resolve();
    ctx.progress(1, 2, 'halfway');
    await held(seen.gate, ctx.signal);
    return `report ${title} ready`;
  }

  @McpTool({
    name: 'instant',
    description: 'Answers at once (a task tool whose work is done before it waits).',
    task: 'optional',
  })
  instant() {
    seen.runs += 1;
    return 'done at once';
  }

  @McpTool({
    name: 'export_all',
    description: 'Runs only as a task.',
    task: 'required',
  })
  async exportAll(_args: object, ctx: McpToolContext) {
    seen.runs += 1;
    await held(seen.gate, ctx.signal);
    return 'exported';
  }

  @McpTool({
    name: 'confirm_then_run',
    description: 'Asks, inside its task, whether to go on; then asks for a name.',
    task: 'optional',
  })
  async confirmThenRun(_args: object, ctx: McpToolContext) {
    seen.runs += 1;
    await Promise.resolve();
    const go = await ctx.elicit('Go on?', {
      type: 'object',
      properties: { go: { type: 'boolean' } },
      required: ['go'],
    });
    if (go.action !== 'accept' || go.content?.go !== true) return 'stopped';
    const who = await ctx.elicit('Who?', {
      type: 'object',
      properties: { name: { type: 'string' } },
      required: ['name'],
    });
    return `went on for ${String(who.content?.name)}`;
  }

  @McpTool({
    name: 'consult',
    description: "Lists the client's roots, then asks its model about them, inside its task.",
    task: 'optional',
  })
  async consult(_args: object, ctx: McpToolContext) {
    await Promise.resolve();
    const { roots } = await ctx.listRoots();
    const reply = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: `Pick one of ${roots.length}` } }],
      maxTokens: 20,
    });
    const content = reply.content as { type: string; text?: string };
    return `${roots.map((root) => root.uri).join(' ')} → ${content.text ?? content.type}`;
  }

  @McpTool({
    name: 'broken',
    description: 'Fails with a JSON-RPC internal error while it runs.',
    task: 'optional',
  })
  async broken(): Promise<never> {
    seen.runs += 1;
    await Promise.resolve();
    throw new McpWardenError(JsonRpcErrorCode.InternalError, 'the export store is gone');
  }

  @McpTool({
    name: 'tool_error',
    description: 'Ends with a tool error result.',
    task: 'optional',
  })
  async toolError() {
    seen.runs += 1;
    await Promise.resolve();
    return { content: [{ type: 'text' as const, text: 'no such export' }], isError: true };
  }

  @McpTool({
    name: 'operator_export',
    description: 'A task behind an operator: it exists at once and waits for the decision.',
    task: 'optional',
  })
  operatorExport() {
    seen.runs += 1;
    return 'operator export done';
  }

  @McpTool({
    name: 'guarded_export',
    description: 'A task behind an approval the caller gives before the task exists.',
    task: 'optional',
  })
  async guardedExport() {
    seen.runs += 1;
    await Promise.resolve();
    return 'guarded export done';
  }
}

/** Everything is allowed, but `guarded_export` asks the caller first; reads of `tasks/*` pass unless blocked. */
export const readBlock = { taskId: '' };
export const taskAuthorizer: Authorizer = (name) =>
  name === 'guarded_export'
    ? { kind: 'ask', prompt: 'Export everything?' }
    : name === 'operator_export'
      ? { kind: 'ask', prompt: 'Export for an auditor?', approver: 'operator' }
      : { kind: 'allow' };

export const TASK_OPTIONS: Partial<McpModuleOptions> = {
  authorizer: taskAuthorizer,
  authorizerSource: 'configured',
  readAuthorizer: (method, args) =>
    method.startsWith('tasks/') && readBlock.taskId !== '' && args.taskId === readBlock.taskId
      ? { kind: 'deny', reason: 'not for you' }
      : Authorizers.allowAll()(method, args, { connId: '', transport: 'http' }),
  requireAuthorization: false,
  // The tasks client polls at the interval the server names: short, so the suites are quick.
  tasks: { pollIntervalMs: 10 },
};

export const TASK_PROVIDERS: Provider[] = [TaskTools];

export function bootTasksApp(
  variant: HttpVariant = 'express',
  options: Partial<McpModuleOptions> = {},
): Promise<HttpTestApp> {
  return createHttpApp({ ...TASK_OPTIONS, ...options }, TASK_PROVIDERS, variant);
}

/** The body field each method's `Mcp-Name` mirrors. */
const NAMED: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** One raw exchange the tasks client made, for assertions on the wire. */
export interface Exchange {
  request: { method: string; params: Record<string, unknown> };
  response: { result?: any; error?: any };
}

/**
 * The official tasks client (@modelcontextprotocol/ext-tasks) on the official SDK v2 client,
 * pinned to 2026-07-28. The SDK client cannot carry task traffic itself, so ext-tasks asks
 * its host for a raw dispatcher: here a POST with the routing headers a conforming client
 * sends (ext-tasks adds `Mcp-Name` for the `tasks/*` requests it makes).
 */
export async function tasksClient(
  url: string,
  options: {
    token?: string;
    capabilities?: Record<string, unknown>;
    answer?: (request: ApplicationInputRequest) => unknown;
  } = {},
): Promise<{ client: Client; session: TaskEnabledSession; exchanges: Exchange[] }> {
  const capabilities = options.capabilities ?? WITH_TASKS;
  const auth: Record<string, string> = options.token
    ? { authorization: `Bearer ${options.token}` }
    : {};
  const client = new Client(
    { name: 'tasks-test', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: auth },
      fetch: sameRealmFetch,
    }),
  );
  const exchanges: Exchange[] = [];
  let id = 0;
  const session = createTaskSessionFromClient(client, {
    endpointId: url,
    v2RequestFraming: {
      protocolVersion: MODERN,
      clientInfo: { name: 'tasks-test', version: '1.0.0' },
      clientCapabilities: capabilities as never,
    },
    rawDispatch: async (request, dispatch) => {
      const message = request as { method: string; params: Record<string, unknown> };
      const headers = new Headers(dispatch?.context?.headers);
      const defaults: Record<string, string> = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': message.method,
        ...auth,
      };
      for (const [name, value] of Object.entries(defaults)) {
        if (!headers.has(name)) headers.set(name, value);
      }
      const field = NAMED[message.method];
      const named = field ? message.params?.[field] : undefined;
      if (typeof named === 'string' && !headers.has('mcp-name')) headers.set('mcp-name', named);
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, ...message }),
        signal: dispatch?.signal,
      });
      const body = JSON.parse(await response.text()) as { result?: unknown; error?: any };
      exchanges.push({ request: message, response: body });
      return 'error' in body
        ? { kind: 'error', error: body.error }
        : { kind: 'result', result: body.result as never };
    },
    onInputRequest: options.answer
      ? async (request) => options.answer!(request) as never
      : undefined,
  });
  return { client, session, exchanges };
}

/*
 * Jest runs the tests in a VM context while fetch is the host's: its `response.json()` builds
 * objects of the host's realm, which ext-tasks' JSON-value check (plain objects of its own
 * realm) refuses. JSON bodies are parsed here, in the tests' realm; streams are parsed by the
 * SDK itself.
 */
const sameRealmFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  if (!response.headers.get('content-type')?.startsWith('application/json')) return response;
  const text = await response.text();
  const copy = new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  return Object.assign(copy, { json: async () => JSON.parse(text) as unknown });
};
