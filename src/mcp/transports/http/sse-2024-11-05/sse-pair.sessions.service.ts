import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { Subscription } from 'rxjs';
import type { McpPrincipal } from '../../../authentication/principal.interface.js';
import { principalKey } from '../../../authentication/principal-key.js';
import { nextTurn } from '../../../core/common/next-turn.js';
import { McpWarden } from '../../../engine/mcp-warden.service.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import { SessionQuota } from '../session/session.quota.js';
import { SseStream } from '../sse/sse-stream.js';

/** One 2024-11-05 HTTP+SSE client: its single stream carries every server message. */
export interface SsePairSession {
  readonly id: string;
  readonly connId: string;
  readonly stream: SseStream;
}

/**
 * Sessions of the deprecated HTTP+SSE transport (2024-11-05 clients). A
 * session lives exactly as long as its `GET /sse` stream.
 */
@Injectable()
export class SsePairSessions implements OnModuleDestroy {
  private readonly sessions = new Map<
    string,
    SsePairSession & { subscription: Subscription; owner: string; quotaKey: string }
  >();
  private readonly quota: SessionQuota;

  constructor(
    private readonly server: McpWarden,
    @Inject(MCP_HTTP_SETTINGS) private readonly options: McpHttpSettings,
  ) {
    this.quota = new SessionQuota(options.maxSessionsPerPrincipal);
  }

  /** Open HTTP+SSE sessions on this instance. */
  get size(): number {
    return this.sessions.size;
  }

  /** Opens the stream, announces the POST endpoint, and wires the server connection to it. */
  open(
    res: ServerResponse,
    messagesPath: string,
    principal?: McpPrincipal,
    quotaKey = principalKey(principal),
  ): SsePairSession {
    if (this.sessions.size >= this.options.maxSessions) {
      throw new McpHttpError(503, 'Service Unavailable: too many sessions');
    }
    this.quota.take(quotaKey);
    const id = randomBytes(24).toString('base64url');
    const connId = `sse:${randomBytes(9).toString('base64url')}`;
    const { keepAliveMs, retryMs, maxQueuedEvents } = this.options;
    const stream = new SseStream(res, { keepAliveMs, retryMs, maxQueued: maxQueuedEvents });
    const subscription = this.server
      .subscribe(connId)
      .subscribe((message) => stream.send(JSON.stringify(message)));
    const owner = principalKey(principal);
    this.sessions.set(id, { id, connId, stream, subscription, owner, quotaKey });
    stream.onClose(() => this.close(id));
    stream.send(`${messagesPath}?sessionId=${id}`, undefined, 'endpoint');
    return { id, connId, stream };
  }

  /** The session `id` names; 404 when unknown, ended, or owned by another principal. */
  require(id: unknown, principal?: McpPrincipal): SsePairSession {
    const session = typeof id === 'string' ? this.sessions.get(id) : undefined;
    if (!session || session.owner !== principalKey(principal)) {
      throw new McpHttpError(404, 'Session not found');
    }
    return session;
  }

  /** Ends session `id`: its stream closes and its owner's quota is released. */
  close(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.quota.release(session.quotaKey);
    session.subscription.unsubscribe();
    session.stream.close();
  }

  /** Answers the calls still waiting on a client, then ends every stream (at shutdown). */
  async onModuleDestroy(): Promise<void> {
    // Calls still awaiting a client are answered (the "connection closed" deny) before the streams end.
    for (const session of this.sessions.values()) this.server.endStreams(session.connId);
    await nextTurn();
    for (const id of [...this.sessions.keys()]) this.close(id);
  }
}
