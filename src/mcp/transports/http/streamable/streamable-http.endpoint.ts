import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpHttpAuthenticator } from '../../../authentication/http-authenticator.service.js';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import { McpInsufficientScopeError } from '../../../authentication/scopes.js';
import { isPromiseLike } from '../../../core/common/maybe-promise.js';
import {
  jsonRpcError,
  type JsonRpcMessage,
  type RequestId,
} from '../../../core/protocol/jsonrpc.js';
import { JsonRpcErrorCode } from '../../../core/protocol/error-codes.constants.js';
import { BATCHING_PROTOCOL_VERSION } from '../../../core/protocol/protocol-version.js';
import type { McpMessageOrigin } from '../../../engine/dispatch/message-origin.interface.js';
import { McpWarden } from '../../../engine/mcp-warden.service.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { McpBodyReader } from '../../../core/http/body-reader.service.js';
import type { RawExchange } from '../../../core/http/raw-exchange.js';
import { quotaKeyOf } from '../../../authentication/quota-key.js';
import { McpCallRateLimiter } from '../security/call-rate.limiter.js';
import { McpHttpGate } from '../security/http-gate.service.js';
import type { McpHttpSession } from '../session/http-session.js';
import { McpHttpSessions } from '../session/http-sessions.service.js';
import { prefersEventStream, requireAccept } from './accept.js';
import { classify } from './message-kind.js';
import { sendJson } from '../../../core/http/send-json.js';
import { checkProtocolVersionHeader } from './protocol-version.header.js';
import { requestKey } from './post-exchange.js';
import { McpModernHttpPost } from '../modern/modern-post.service.js';
import {
  MCP_SESSION_RELAY,
  type McpRemoteSession,
  type McpSessionRelay,
} from '../session/session-relay.interface.js';

const JSON_AND_SSE = ['application/json', 'text/event-stream'];
/** The body a request naming an unknown session may send: enough for any initialize. */
const UNKNOWN_SESSION_BODY_BYTES = 64 * 1024;

/**
 * The Streamable HTTP endpoint (POST, GET, DELETE on one path), served from
 * a Nest route on the Node request and response underneath the adapter's.
 */
@Injectable()
export class McpStreamableHttpEndpoint {
  private readonly logger = new Logger('McpHttp');

  constructor(
    private readonly server: McpWarden,
    private readonly sessions: McpHttpSessions,
    private readonly gate: McpHttpGate,
    private readonly authenticator: McpHttpAuthenticator,
    private readonly rate: McpCallRateLimiter,
    private readonly bodies: McpBodyReader,
    private readonly modern: McpModernHttpPost,
    @Inject(MCP_HTTP_SETTINGS) private readonly options: McpHttpSettings,
    /** Cluster mode: serves sessions another instance holds. */
    @Optional()
    @Inject(MCP_SESSION_RELAY)
    private readonly relay: McpSessionRelay | null = null,
  ) {}

  /**
   * Serves one request to the endpoint; every refusal is a status with a
   * JSON-RPC body. `adapterRequest` is the HTTP adapter's own request object,
   * which handlers' guards see as `switchToHttp().getRequest()`.
   */
  async handle({ req, res }: RawExchange, adapterRequest: object = req): Promise<void> {
    try {
      const admitted = this.gate.admit(req);
      const principal = isPromiseLike(admitted) ? await admitted : admitted;
      if (req.method !== 'POST' && McpModernHttpPost.namedByHeader(req)) {
        // The modern era is POST only: no standalone stream, no session to delete.
        res.setHeader('Allow', 'POST');
        throw new McpHttpError(405, 'Method Not Allowed: the 2026-07-28 era is POST only');
      }
      switch (req.method) {
        case 'POST':
          return await this.post(req, res, adapterRequest, principal);
        case 'GET':
          return await this.get(req, res, principal);
        case 'DELETE':
          return await this.delete(req, res, principal);
        default:
          res.setHeader('Allow', 'GET, POST, DELETE');
          throw new McpHttpError(405, 'Method Not Allowed');
      }
    } catch (error) {
      sendHttpError(res, error, this.logger);
    }
  }

  /** One message or a 2025-03-26 batch: 202 for notifications/responses, else JSON or SSE. */
  private async post(
    req: IncomingMessage,
    res: ServerResponse,
    adapterRequest: object,
    principal: McpPrincipal | undefined,
  ): Promise<void> {
    requireAccept(req, JSON_AND_SSE);
    // A session id that names no session of this caller may only be an initialize (which
    // ignores it): its body is held to what an initialize needs, and anything else is 404.
    const named = req.headers['mcp-session-id'];
    let stranger = typeof named === 'string' && !this.sessions.owns(named, principal);
    // Cluster mode: a session another instance holds is no stranger; its messages go there.
    const remote = stranger ? await this.remoteOf(named as string, principal) : undefined;
    if (remote) stranger = false;
    const quotaKey = quotaKeyOf(principal, req, '');
    const body = await this.bodies.read(
      req,
      quotaKey,
      stranger ? UNKNOWN_SESSION_BODY_BYTES : undefined,
    );
    try {
      await this.serveBody(req, res, body, adapterRequest, principal, quotaKey, remote);
    } catch (error) {
      // Once the body is read, a refusal names the request it refuses.
      const id = classify(body);
      if (error instanceof McpHttpError && id.kind === 'request') error.requestId = id.id;
      throw error;
    }
  }

  private async serveBody(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    adapterRequest: object,
    principal: McpPrincipal | undefined,
    /** The caller's budgets' key, as its body was read under. */
    quotaKey: string,
    remote?: McpRemoteSession,
  ): Promise<void> {
    if (McpModernHttpPost.claims(req, body)) {
      const origin: McpMessageOrigin = {
        transport: 'http',
        principal,
        httpRequest: adapterRequest as IncomingMessage,
      };
      return this.modern.serve(req, res, body as Record<string, unknown>, origin, principal);
    }
    // The modern path checks its header against the envelope; the handshake era's is checked here.
    checkProtocolVersionHeader(req);
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    const kinds = messages.map(classify);
    const ids: RequestId[] = [];
    for (const kind of kinds) if (kind.kind === 'request') ids.push(kind.id);
    // A token per request, and one for a body that holds something other than requests and
    // notifications: refusing it is the server's work too. A notification takes none.
    const invalid = messages.length === 0 || kinds.some((k) => k.kind === 'invalid');
    // Awaited only in cluster mode (a shared bucket): a local bucket answers at once.
    const taking = this.rate.take(quotaKey, invalid ? Math.max(1, ids.length) : ids.length);
    if (taking) await taking;
    if (messages.length === 0 || (batch && invalid)) throw new McpHttpError(400, 'Invalid Request');
    const first = kinds[0];
    const initialize = !batch && first.kind === 'request' && first.method === 'initialize';
    if (remote && !initialize) {
      return this.relay!.post(res, remote, body, ids, principal, prefersEventStream(req));
    }
    const session = initialize
      ? await this.sessions.open(principal, quotaKey)
      : this.sessionOf(req, principal);
    if (batch && session.protocolVersion !== BATCHING_PROTOCOL_VERSION) {
      throw new McpHttpError(400, 'Invalid Request: batches are not supported by this session');
    }
    // An id still being answered (or repeated in the batch) would cross-wire the answers.
    if (repeats(ids) || ids.some((id) => session.inFlight(id))) {
      throw new McpHttpError(400, 'Invalid Request: a request with this id is already in flight');
    }
    const origin: McpMessageOrigin = {
      transport: 'http',
      principal,
      httpRequest: adapterRequest as IncomingMessage,
    };
    if (first.kind === 'invalid') {
      const outcome = await this.server.dispatch(body, session.connId, origin);
      return sendJson(res, 400, outcome.kind === 'reply' ? outcome.message : null);
    }
    if (ids.length === 0) {
      await Promise.all(messages.map((m) => this.server.dispatch(m, session.connId, origin)));
      res.writeHead(202).end();
      return;
    }
    const exchange = session.openExchange(res, ids, batch, prefersEventStream(req));
    messages.forEach((message, index) => {
      const kind = kinds[index];
      // Spec 2025-03-26: a batch never carries initialize (it would reset the session mid-batch).
      if (batch && kind.kind === 'request' && kind.method === 'initialize') {
        const refused = 'Invalid Request: initialize cannot be batched';
        exchange.deliver(jsonRpcError(kind.id, JsonRpcErrorCode.InvalidRequest, refused));
        return;
      }
      void this.server.dispatch(message, session.connId, origin).then((outcome) => {
        if (kind.kind !== 'request') return;
        if (outcome.kind === 'reply') {
          const reply = outcome.message as JsonRpcMessage;
          if (initialize) this.initialized(session, reply);
          const scopes = batch ? undefined : McpInsufficientScopeError.scopesOf(reply.error);
          if (scopes) exchange.refuse(reply, this.authenticator.insufficientScope(req, scopes));
          else exchange.deliver(reply);
        } else if (outcome.kind === 'none') {
          // Cancelled: nothing will answer it.
          exchange.abandon(kind.id);
        } else {
          // A parked call answers later, through the session; cancelled, it never will.
          void outcome.answered?.then((answered) => answered || exchange.abandon(kind.id));
        }
      });
    });
  }

  /** The session's standalone stream, or (with `Last-Event-ID`) a resumed one. */
  private async get(
    req: IncomingMessage,
    res: ServerResponse,
    principal?: McpPrincipal,
  ): Promise<void> {
    requireAccept(req, ['text/event-stream']);
    checkProtocolVersionHeader(req);
    const lastEventId = req.headers['last-event-id'];
    const remote = await this.remoteRequest(req, principal);
    if (remote) {
      const resumeFrom = typeof lastEventId === 'string' ? lastEventId : undefined;
      return this.relay!.get(res, remote, resumeFrom);
    }
    const session = this.sessionOf(req, principal);
    if (typeof lastEventId === 'string') {
      if (!session.resume(res, lastEventId)) throw new McpHttpError(404, 'Unknown event id');
      return;
    }
    if (!session.openStandalone(res)) {
      throw new McpHttpError(409, 'Conflict: this session already has a standalone stream');
    }
  }

  /** Ends the session; later requests with its id get 404. */
  private async delete(
    req: IncomingMessage,
    res: ServerResponse,
    principal?: McpPrincipal,
  ): Promise<void> {
    checkProtocolVersionHeader(req);
    const remote = await this.remoteRequest(req, principal);
    if (remote) return this.relay!.delete(res, remote);
    const session = this.sessionOf(req, principal);
    this.sessions.delete(session.id);
    res.writeHead(200).end();
  }

  /** Cluster mode: the session the request names, when another instance holds it. */
  private remoteRequest(
    req: IncomingMessage,
    principal: McpPrincipal | undefined,
  ): Promise<McpRemoteSession | undefined> | undefined {
    const header = req.headers['mcp-session-id'];
    if (typeof header !== 'string' || this.sessions.owns(header, principal)) return undefined;
    return this.remoteOf(header, principal);
  }

  private async remoteOf(
    id: string,
    principal: McpPrincipal | undefined,
  ): Promise<McpRemoteSession | undefined> {
    if (!this.relay || this.sessions.find(id)) return undefined;
    return this.relay.find(id, principal);
  }

  private sessionOf(req: IncomingMessage, principal: McpPrincipal | undefined): McpHttpSession {
    const header = req.headers['mcp-session-id'];
    return this.sessions.require(typeof header === 'string' ? header : undefined, principal);
  }

  private initialized(session: McpHttpSession, reply: JsonRpcMessage): void {
    const result = reply.result as { protocolVersion?: string } | undefined;
    if (result?.protocolVersion) session.protocolVersion = result.protocolVersion;
    // A failed initialize leaves no session behind.
    else this.sessions.delete(session.id);
  }
}

/** Whether a batch names one request id twice. */
function repeats(ids: readonly RequestId[]): boolean {
  return ids.length > 1 && new Set(ids.map(requestKey)).size < ids.length;
}
