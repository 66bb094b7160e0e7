import type { INestApplicationContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { MCP_OPTIONS } from '../../mcp/core/options/options.constants.js';
import type { McpResolvedOptions } from '../../mcp/options/resolved-options.interface.js';
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from '../../mcp/core/protocol/mcp-types.js';
import { LATEST_PROTOCOL_VERSION } from '../../mcp/core/protocol/protocol-version.js';
import type { McpMessageOrigin } from '../../mcp/engine/dispatch/message-origin.interface.js';
import type { McpWarden } from '../../mcp/engine/mcp-warden.service.js';
import { getMcpWardenToken } from '../../mcp/engine/inject-mcp-warden.decorator.js';
import { getMcpOptionsToken } from '../../mcp/core/servers/server-tokens.js';
import { McpServerScope } from '../../mcp/core/servers/mcp-server-scope.service.js';
import type {
  McpApprovalHandler,
  McpApprovalRequest,
  McpClientRequestHandler,
  McpClientRequests,
  McpTestClientOptions,
} from './mcp-test-client.options.js';
import type {
  CompleteResult,
  InitializeResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  McpCompletionArgument,
  McpCompletionRef,
} from './mcp-test-client.types.js';
import { McpTestConnection } from './mcp-test-connection.js';

/** What `connect()` needs of the app: an `INestApplicationContext`, a `TestingModule`, … */
export type McpAppContext = Pick<INestApplicationContext, 'get'>;

const DEFAULT_CLIENT_INFO = { name: 'mcp-warden-test-client', version: '1.0.0' };

/**
 * A typed, in-process MCP client for tests: one connection to the app's
 * `McpWarden`, with no transport in between. Several clients (say, two
 * principals) can share one app; each has its own connection, and each
 * approval reaches only the client whose call asked for it.
 *
 * Approvals: an `ask` decision on `tools/call` is answered by `onApproval()`,
 * or once by `approveNext()` / `declineNext()`; with neither it is declined,
 * so silence is never consent.
 *
 * @example
 * const client = await McpTestClient.connect(app, { principal: { subject: 'alice', scopes: [] } });
 * const tools = await client.listTools();
 * client.approveNext();
 * const result = await client.callTool('delete_note', { id: 'n1' });
 * await client.close();
 */
export class McpTestClient extends McpTestConnection {
  private initialized?: InitializeResult;

  /**
   * Opens a connection and performs the handshake (`initialize`, then
   * `notifications/initialized`). The outbound channel is opened first, as a
   * transport does, so the server can ask this client for approvals.
   */
  static async connect(
    app: McpAppContext,
    options: McpTestClientOptions = {},
  ): Promise<McpTestClient> {
    const { server } = options;
    // Nest would hand an unnamed lookup whichever server it met first.
    if (server === undefined && app.get(McpServerScope, { strict: false }).several) {
      throw new Error(
        'McpTestClient.connect: this app has several servers; name one: { server: ' +
          `'${app.get(McpServerScope, { strict: false }).names().join("' | '")}' }`,
      );
    }
    const warden = app.get<McpWarden>(getMcpWardenToken(server));
    const declared = app.get<McpResolvedOptions>(
      server === undefined ? MCP_OPTIONS : getMcpOptionsToken(server),
    ).transport;
    // An in-process caller is the application itself, so it may say who is calling.
    const origin: McpMessageOrigin = Object.freeze({
      transport: options.transport ?? declared,
      ...(options.principal && { principal: options.principal }),
    });
    const client = new McpTestClient(warden, options.connId ?? `mcp-test-${randomUUID()}`, origin);
    client.open();
    try {
      client.initialized = await client.request<InitializeResult>('initialize', {
        protocolVersion: options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
        capabilities: options.capabilities ?? { elicitation: { form: {} } },
        clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
      });
      await client.notify('notifications/initialized');
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  /** What the server answered to `initialize`: version, server info, capabilities, instructions. */
  get initializeResult(): InitializeResult {
    return this.initialized as InitializeResult;
  }

  /** Every approval this client was asked for, oldest first. */
  get approvals(): readonly McpApprovalRequest[] {
    return this.approver.asked;
  }

  /** Every tool this caller may see, across all pages. */
  listTools(): Promise<Tool[]> {
    return this.listAll('tools/list', (page: ListToolsResult) => page.tools);
  }

  /** Calls a tool; a parked (`ask`) call resolves once its approval is answered. */
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult> {
    return this.request('tools/call', args === undefined ? { name } : { name, arguments: args });
  }

  /** Every resource this caller may see, across all pages. */
  listResources(): Promise<Resource[]> {
    return this.listAll('resources/list', (page: ListResourcesResult) => page.resources);
  }

  /** Every resource template this caller may see, across all pages. */
  listResourceTemplates(): Promise<ResourceTemplate[]> {
    return this.listAll(
      'resources/templates/list',
      (page: ListResourceTemplatesResult) => page.resourceTemplates,
    );
  }

  /** Reads a resource. */
  readResource(uri: string): Promise<ReadResourceResult> {
    return this.request('resources/read', { uri });
  }

  /** Every prompt this caller may see, across all pages. */
  listPrompts(): Promise<Prompt[]> {
    return this.listAll('prompts/list', (page: ListPromptsResult) => page.prompts);
  }

  /** Gets a prompt with its (string) arguments. */
  getPrompt(name: string, args?: Record<string, string>): Promise<GetPromptResult> {
    return this.request('prompts/get', args === undefined ? { name } : { name, arguments: args });
  }

  /**
   * Completes an argument of a prompt, a resource template or a tool.
   *
   * @example
   * await client.complete({ type: 'ref/prompt', name: 'summarize_note' }, { name: 'id', value: 'n' });
   */
  complete(
    ref: McpCompletionRef,
    argument: McpCompletionArgument,
    context?: { arguments?: Record<string, string> },
  ): Promise<CompleteResult> {
    return this.request('completion/complete', { ref, argument, ...(context && { context }) });
  }

  /**
   * Sets how this client answers approvals from now on (replacing the
   * default decline). One-shot answers queued with `approveNext()` /
   * `declineNext()` are used first. A handler that throws answers with an
   * error, which the server treats as a refusal.
   *
   * @example
   * client.onApproval(({ tool }) => (tool === 'delete_note' ? 'approve' : 'decline'));
   */
  onApproval(handler: McpApprovalHandler): this {
    this.approver.setHandler(handler);
    return this;
  }

  /**
   * Approves the next approval asked of this client, once. Resolves with
   * that approval when it has been answered (no need to await it).
   */
  approveNext(): Promise<McpApprovalRequest> {
    return this.approver.queueNext('approve');
  }

  /** Declines the next approval asked of this client, once; resolves as `approveNext()` does. */
  declineNext(): Promise<McpApprovalRequest> {
    return this.approver.queueNext('decline');
  }

  /**
   * Answers the server's other requests of `method` (a tool's own
   * elicitation, sampling, roots). Without a handler an elicitation is
   * declined and sampling or roots get -32601. Declare the capability too.
   *
   * @example
   * const client = await McpTestClient.connect(app, { capabilities: { sampling: {} } });
   * client.onRequest('sampling/createMessage', () => ({
   *   role: 'assistant', model: 'test', content: { type: 'text', text: 'hi' },
   * }));
   */
  onRequest<M extends keyof McpClientRequests>(
    method: M,
    handler: McpClientRequestHandler<M>,
  ): this {
    this.responder.setHandler(method, handler);
    return this;
  }

  /* Follows `nextCursor` until the last page. */
  private async listAll<P extends { nextCursor?: string }, T>(
    method: string,
    itemsOf: (page: P) => T[],
  ): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const page: P = await this.request<P>(method, cursor === undefined ? undefined : { cursor });
      items.push(...itemsOf(page));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return items;
  }
}
