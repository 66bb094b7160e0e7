import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { McpPrincipal } from '../authentication/principal.interface.js';
import { jsonRpcError, type JsonRpcMessage } from '../core/protocol/jsonrpc.js';
import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';
import { BATCHING_PROTOCOL_VERSION } from '../core/protocol/protocol-version.js';
import type { McpMessageOrigin } from '../engine/dispatch/message-origin.interface.js';
import { McpWarden } from '../engine/mcp-warden.service.js';
import { STANDALONE, type McpHttpSession } from '../transports/http/session/http-session.js';
import { McpHttpSessions } from '../transports/http/session/http-sessions.service.js';
import { requestKey, type PostExchange } from '../transports/http/streamable/post-exchange.js';
import { classify, type MessageKind } from '../transports/http/streamable/message-kind.js';
import { McpClusterBus } from './cluster-bus.js';
import type { ClusterRequest } from './cluster-messages.js';
import { MCP_CLUSTER_BUS, MCP_CLUSTER_DIRECTORY } from './cluster.constants.js';
import type { RedisSessionDirectory } from './redis-session.directory.js';

/**
 * The owner's side of forwarded operations: a POST, a stream to serve, or a
 * DELETE that another instance received for a session held here. A POST is
 * served as the endpoint serves one (same checks, same dispatch), on an
 * exchange without a local response: its events reach the forwarding
 * instance through the session's mirror.
 */
@Injectable()
export class McpClusterInbox implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpCluster');
  private readonly watched = new Set<string>();

  constructor(
    @Inject(MCP_CLUSTER_BUS) private readonly bus: McpClusterBus,
    @Inject(MCP_CLUSTER_DIRECTORY) private readonly directory: RedisSessionDirectory,
    private readonly sessions: McpHttpSessions,
    private readonly server: McpWarden,
  ) {}

  onApplicationBootstrap(): void {
    this.bus.serve((request) => {
      this.handle(request).catch((error: Error) => {
        this.logger.warn(`forwarded ${request.op} failed: ${error.message}`);
        if (request.c) this.refuse(request, 500, 'Internal error');
      });
    });
  }

  private async handle(request: ClusterRequest): Promise<void> {
    if (typeof request.sid !== 'string') return;
    const session = this.sessions.find(request.sid);
    if (request.op === 'detach') {
      this.directory.mirror(request.sid)?.detach(request.stream, request.tail);
      return;
    }
    if (!session || session.owner !== request.pk) {
      return this.refuse(request, 404, 'Session not found');
    }
    session.lastSeen = Date.now();
    switch (request.op) {
      case 'post':
        return this.post(session, request);
      case 'attach':
        return this.attach(session, request);
      case 'delete':
        this.sessions.delete(session.id);
        return this.bus.reply(request, { ok: true });
    }
  }

  private attach(session: McpHttpSession, request: ClusterRequest & { op: 'attach' }): void {
    const mirror = this.directory.mirror(session.id);
    const standalone = request.stream === STANDALONE;
    const known = standalone || session.hasExchange(request.stream);
    if (mirror && known) {
      mirror.attach(request.stream, request.f, request.c);
      this.watchReader(request.f);
    }
    const mark = standalone ? session.mark(STANDALONE) : undefined;
    this.bus.reply(request, { ok: true, known, mark });
    if (standalone) session.flushWaiting();
  }

  private async post(
    session: McpHttpSession,
    request: ClusterRequest & { op: 'post' },
  ): Promise<void> {
    const { body } = request;
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    const kinds = messages.map(classify);
    if (messages.length === 0 || (batch && kinds.some((kind) => kind.kind === 'invalid'))) {
      return this.refuse(request, 400, 'Invalid Request');
    }
    if (batch && session.protocolVersion !== BATCHING_PROTOCOL_VERSION) {
      return this.refuse(
        request,
        400,
        'Invalid Request: batches are not supported by this session',
      );
    }
    const ids = kinds.flatMap((kind) => (kind.kind === 'request' ? [kind.id] : []));
    if (new Set(ids.map(requestKey)).size < ids.length || ids.some((id) => session.inFlight(id))) {
      return this.refuse(
        request,
        400,
        'Invalid Request: a request with this id is already in flight',
      );
    }
    const origin: McpMessageOrigin = {
      transport: 'http',
      principal: request.principal as McpPrincipal | undefined,
    };
    if (kinds[0].kind === 'invalid') {
      const outcome = await this.server.dispatch(body, session.connId, origin);
      const reply = outcome.kind === 'reply' ? outcome.message : null;
      return this.refuse(request, 400, 'Invalid Request', reply);
    }
    if (ids.length === 0) {
      await Promise.all(messages.map((m) => this.server.dispatch(m, session.connId, origin)));
      return this.bus.reply(request, { ok: true });
    }
    const exchange = session.openExchange(undefined, ids, batch, true);
    this.directory.mirror(session.id)?.attach(exchange.streamId, request.f, request.c);
    this.watchReader(request.f);
    this.bus.reply(request, { ok: true, stream: exchange.streamId });
    messages.forEach((message, index) =>
      this.dispatch(session, exchange, message, kinds[index], origin, batch),
    );
  }

  private dispatch(
    session: McpHttpSession,
    exchange: PostExchange,
    message: unknown,
    kind: MessageKind,
    origin: McpMessageOrigin,
    batch: boolean,
  ): void {
    if (batch && kind.kind === 'request' && kind.method === 'initialize') {
      const refused = 'Invalid Request: initialize cannot be batched';
      exchange.deliver(jsonRpcError(kind.id, JsonRpcErrorCode.InvalidRequest, refused));
      return;
    }
    void this.server.dispatch(message, session.connId, origin).then((outcome) => {
      if (kind.kind !== 'request') return;
      if (outcome.kind === 'reply') exchange.deliver(outcome.message as JsonRpcMessage);
      else if (outcome.kind === 'none') exchange.abandon(kind.id);
      else void outcome.answered?.then((answered) => answered || exchange.abandon(kind.id));
    });
  }

  /** Once `instance` dies, the streams it served for sessions held here are no longer relayed. */
  private watchReader(instance: string): void {
    if (instance === this.bus.instance || this.watched.has(instance)) return;
    this.watched.add(instance);
    this.bus.watch(instance, () => {
      this.watched.delete(instance);
      for (const mirror of this.directory.allMirrors()) mirror.forget(instance);
    });
  }

  private refuse(request: ClusterRequest, status: number, message: string, body?: unknown): void {
    if (request.c) this.bus.reply(request, { ok: false, status, message, body });
  }
}
