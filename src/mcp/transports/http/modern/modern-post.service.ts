import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpHttpAuthenticator } from '../../../authentication/http-authenticator.service.js';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import { quotaKeyOf } from '../../../authentication/quota-key.js';
import { McpInsufficientScopeError } from '../../../authentication/scopes.js';
import { readEra } from '../../../core/protocol/request-envelope.js';
import { SUPPORTED_MODERN_PROTOCOL_VERSIONS } from '../../../core/protocol/era.constants.js';
import { McpWardenError } from '../../../core/errors/mcp-warden.error.js';
import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import {
  isJsonObject,
  jsonRpcError,
  type JsonRpcMessage,
  type RequestId,
} from '../../../core/protocol/jsonrpc.js';
import { McpRegistry } from '../../../definitions/mcp-registry.service.js';
import type { McpMessageOrigin } from '../../../engine/dispatch/message-origin.interface.js';
import { McpWarden } from '../../../engine/mcp-warden.service.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { McpCallRateLimiter } from '../security/call-rate.limiter.js';
import { sendJson } from '../../../core/http/send-json.js';
import { ModernExchange } from './modern-exchange.js';
import { checkParamHeaders, checkStandardHeaders } from './modern-headers.check.js';

/** HTTP statuses of the errors the modern era answers outside 200 (spec: streamable HTTP). */
const STATUS: Readonly<Record<number, number>> = {
  [JsonRpcErrorCode.MethodNotFound]: 404,
  [JsonRpcErrorCode.HeaderMismatch]: 400,
  [JsonRpcErrorCode.MissingRequiredClientCapability]: 400,
  [JsonRpcErrorCode.UnsupportedProtocolVersion]: 400,
};

/* Ids of the connections that live for one modern request each. */
let sequence = 0;

/**
 * One modern (2026-07-28) POST: stateless, no session. The envelope and the
 * routing headers are checked before anything runs; the request is served on
 * a connection that lives exactly as long as the request, so closing the
 * response cancels it (spec: a dropped stream is the cancellation).
 */
@Injectable()
export class McpModernHttpPost implements BeforeApplicationShutdown {
  /** The requests being served, each with how to end it at shutdown. */
  private readonly active = new Set<() => void>();

  constructor(
    private readonly server: McpWarden,
    private readonly registry: McpRegistry,
    private readonly authenticator: McpHttpAuthenticator,
    private readonly rate: McpCallRateLimiter,
    @Inject(MCP_HTTP_SETTINGS) private readonly settings: McpHttpSettings,
  ) {}

  /** Whether `body` is modern traffic: its `_meta` claims the envelope, or the header names a modern revision. */
  static claims(req: IncomingMessage, body: unknown): boolean {
    if (!isJsonObject(body) || Array.isArray(body)) return false;
    return readEra(body.params).era === 'modern' || McpModernHttpPost.namedByHeader(req);
  }

  /** Whether the `MCP-Protocol-Version` header names a modern revision. */
  static namedByHeader(req: IncomingMessage): boolean {
    const header = req.headers['mcp-protocol-version'];
    return typeof header === 'string' && SUPPORTED_MODERN_PROTOCOL_VERSIONS.includes(header.trim());
  }

  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: Record<string, unknown>,
    origin: McpMessageOrigin,
    principal: McpPrincipal | undefined,
  ): Promise<void> {
    const id = body.id;
    if (typeof body.method !== 'string') {
      throw new McpHttpError(400, 'Invalid Request: responses cannot be posted in this era');
    }
    // A notification: nothing on this stateless endpoint is waiting for one.
    if (!('id' in body)) return void res.writeHead(202).end();
    const requestId = id as RequestId;
    // Every request takes its token, one refused for its envelope or headers too: checking it
    // is the server's work, and the budget bounds a caller's, whatever it sends.
    await this.rate.take(quotaKeyOf(principal, req, ''), 1);
    const params = isJsonObject(body.params) ? body.params : {};
    const refusal = this.refusal(req, body.method, params);
    if (refusal)
      return sendJson(
        res,
        400,
        jsonRpcError(requestId, refusal.code, refusal.message, refusal.data),
      );

    const connId = `modern:${++sequence}`;
    const { keepAliveMs, retryMs, maxQueuedEvents } = this.settings;
    const exchange = new ModernExchange(res, { keepAliveMs, retryMs, maxQueued: maxQueuedEvents });
    const channel = this.server.subscribe(connId).subscribe((message) => {
      exchange.related(message as JsonRpcMessage);
    });
    // The client went away before the answer: that cancels the request.
    res.once('close', () => channel.unsubscribe());
    // At shutdown the request is told so, and its work is cancelled.
    const shutDown = () => {
      exchange.answer(
        jsonRpcError(requestId, JsonRpcErrorCode.InternalError, 'Server shutting down'),
        503,
      );
      channel.unsubscribe();
    };
    // A listen stream is ended by the listeners themselves, with its own final result.
    if (body.method !== 'subscriptions/listen') this.active.add(shutDown);
    try {
      const outcome = await this.server.dispatch(body, connId, origin);
      if (outcome.kind !== 'reply') return exchange.end();
      const reply = outcome.message as JsonRpcMessage;
      const scopes = McpInsufficientScopeError.scopesOf(reply.error);
      if (scopes) {
        const challenge = this.authenticator.insufficientScope(req, scopes);
        return exchange.answer(reply, challenge.status, challenge.headers);
      }
      const code = (reply.error as { code?: number } | undefined)?.code;
      exchange.answer(reply, code === undefined ? 200 : (STATUS[code] ?? 200));
    } finally {
      this.active.delete(shutDown);
      channel.unsubscribe();
    }
  }

  /**
   * Before the HTTP server closes (it would wait for these responses): every
   * request still running, but listen streams (which `McpListeners` ends with
   * their final result), answers 503 and is cancelled.
   */
  beforeApplicationShutdown(): void {
    for (const shutDown of [...this.active]) shutDown();
  }

  /**
   * The refusals before dispatch, in the spec's order: a malformed envelope
   * (-32602), headers that disagree with the body (-32020), a revision not
   * served (-32022), then the `Mcp-Param-*` headers of the named tool.
   */
  private refusal(
    req: IncomingMessage,
    method: string,
    params: Record<string, unknown>,
  ): McpWardenError | undefined {
    const reading = readEra(params);
    if ('error' in reading && reading.error.code === JsonRpcErrorCode.InvalidParams) {
      return reading.error;
    }
    const meta = params._meta as Record<string, unknown> | undefined;
    const claimed = meta?.['io.modelcontextprotocol/protocolVersion'];
    try {
      if (typeof claimed !== 'string') {
        return missingEnvelope(req);
      }
      checkStandardHeaders(req, method, params, claimed);
      if ('error' in reading) return reading.error;
      if (method === 'tools/call' && typeof params.name === 'string') {
        const entry = this.registry.tool(params.name);
        if (entry) checkParamHeaders(req, entry.tool.inputSchema, params.arguments);
      }
    } catch (error) {
      return error as McpWardenError;
    }
    return undefined;
  }
}

/* The header names a modern revision, the body carries no envelope. */
function missingEnvelope(req: IncomingMessage): McpWardenError {
  const version = String(req.headers['mcp-protocol-version']);
  return new McpWardenError(
    JsonRpcErrorCode.InvalidParams,
    `Invalid params: the MCP-Protocol-Version header names protocol revision ${version}, but the request is missing the required per-request envelope key(s): _meta`,
    { envelope: { missing: ['_meta'] } },
  );
}
