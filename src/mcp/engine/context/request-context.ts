import type { IncomingMessage } from 'node:http';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpTransportKind } from '../../core/protocol/transport-kind.js';
import { jsonRpcNotification, type RequestId } from '../../core/protocol/jsonrpc.js';
import type {
  McpElicitationUrl,
  McpUrlElicitResult,
} from '../../definitions/interfaces/url-elicitation.interface.js';
import type {
  ClientCapabilities,
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from '../../core/protocol/mcp-types.js';
import { relateToRequest } from '../../core/protocol/related-request.js';
import { METHOD_STARTED } from '../../definitions/pipeline/handler-pipeline.js';
import type {
  McpInputOptions,
  McpToolContext,
} from '../../definitions/interfaces/mcp-context.interface.js';
import type { McpEra } from '../../core/protocol/era.constants.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { elicitForm, elicitUrl, requireCapability, sampleClient } from './client-requests.js';
import { passesLogLevel } from './log-level.js';
import type { McpCallerCredentials } from './caller-credentials.js';
import type { McpCredentials } from '../../authentication/token-exchange/credentials.interface.js';
import { McpTokenExchangeError } from '../../authentication/token-exchange/token-exchange.error.js';

/* A context built outside the engine's handlers (a test's, say) has nothing to exchange with. */
const NO_CREDENTIALS: McpCredentials = {
  exchange: () =>
    Promise.reject(new McpTokenExchangeError('token exchange is not available in this context')),
};

/**
 * The context a tool, resource or prompt handler receives. Progress and log
 * messages go to the caller's connection only, tagged with the request's id;
 * progress must increase and stops once the request has ended (spec:
 * progress). Methods live on the prototype: one small object per request.
 */
export class McpRequestContext implements McpToolContext {
  private lastProgress = -Infinity;
  private ended = false;
  /**
   * Whether the handler's own body started: false only while a handler's enhancers run, and
   * for good when they refused (the pipeline says so, `METHOD_STARTED`).
   */
  private bodyStarted = true;

  constructor(
    private readonly request: McpRequest,
    private readonly callerCredentials?: McpCallerCredentials,
  ) {}

  /** Told by the handler pipeline as enhancers begin (false) and the body starts (true). @internal */
  [METHOD_STARTED](started: boolean): void {
    this.bodyStarted = started;
  }

  /** Whether the handler's own body started: a refusal by its enhancers leaves it false. @internal */
  get handlerStarted(): boolean {
    return this.bodyStarted;
  }

  get connId(): string {
    return this.request.connection.id;
  }

  get transport(): McpTransportKind {
    return this.request.transport;
  }

  get principal(): McpPrincipal | undefined {
    return this.request.principal;
  }

  get httpRequest(): IncomingMessage | undefined {
    return this.request.httpRequest;
  }

  get requestId(): RequestId {
    return this.request.id;
  }

  get era(): McpEra {
    return this.request.era;
  }

  get clientCapabilities(): ClientCapabilities | undefined {
    return this.request.clientCapabilities;
  }

  get signal(): AbortSignal {
    return this.request.signal;
  }

  get credentials(): McpCredentials {
    return this.callerCredentials?.of(this.request) ?? NO_CREDENTIALS;
  }

  /** Called by the server once the response is built: later progress and logs are dropped. */
  end(): void {
    this.ended = true;
  }

  progress(progress: number, total?: number, message?: string): void {
    const meta = (this.request.params as { _meta?: { progressToken?: unknown } })._meta;
    const token = meta?.progressToken;
    if (this.ended || (typeof token !== 'string' && typeof token !== 'number')) return;
    if (!(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.send(jsonRpcNotification('notifications/progress', params));
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const threshold = this.request.logLevel;
    if (this.ended || threshold === undefined || !passesLogLevel(level, threshold)) return;
    const params: Record<string, unknown> = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.send(jsonRpcNotification('notifications/message', params));
  }

  elicit(
    message: string,
    requestedSchema: Record<string, unknown>,
    options?: McpInputOptions,
  ): Promise<ElicitResult> {
    return elicitForm(this.request, message, requestedSchema, options?.key);
  }

  elicitUrl(
    message: string,
    url: McpElicitationUrl,
    options?: McpInputOptions,
  ): Promise<McpUrlElicitResult> {
    return elicitUrl(this.request, message, url, options?.key);
  }

  sample(params: CreateMessageParams, options?: McpInputOptions): Promise<CreateMessageResult> {
    return sampleClient(this.request, params, options?.key);
  }

  async listRoots(options?: McpInputOptions): Promise<ListRootsResult> {
    requireCapability(this.request, 'roots');
    return (await this.request.requestClient('roots/list', {}, options?.key)) as ListRootsResult;
  }

  private send(message: Record<string, unknown>): void {
    this.request.connection.send(relateToRequest(message, this.request.id));
  }
}
