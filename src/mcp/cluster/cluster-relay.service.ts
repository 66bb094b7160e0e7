import { Inject, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { McpPrincipal } from '../authentication/principal.interface.js';
import { principalKey } from '../authentication/principal-key.js';
import type { RequestId } from '../core/protocol/jsonrpc.js';
import { JsonRpcErrorCode } from '../core/protocol/error-codes.constants.js';
import { McpHttpError } from '../core/http/mcp-http.error.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../transports/http/http-settings.js';
import { STANDALONE } from '../transports/http/session/http-session.js';
import type {
  McpRemoteSession,
  McpSessionRelay,
} from '../transports/http/session/session-relay.interface.js';
import { INSTANCE_GONE as SESSION_LOST, McpClusterBus } from './cluster-bus.js';
import type { ClusterReply } from './cluster-messages.js';
import { MCP_CLUSTER_BUS, MCP_CLUSTER_DIRECTORY } from './cluster.constants.js';
import { seqOf, streamOf, type LogEntry } from './redis-event.log.js';
import {
  unavailable,
  type DirectoryEntry,
  type RedisSessionDirectory,
} from './redis-session.directory.js';
import { RelayedStream } from './relayed-stream.js';

interface RemoteSession extends McpRemoteSession {
  readonly owner: string;
}

/**
 * A forwarded POST its holder never acknowledged: it may have arrived and run
 * (JSON-RPC `OutcomeUnknown`, HTTP 504).
 */
export const POST_UNACKNOWLEDGED =
  'Outcome unknown: the instance holding the session did not answer in time; the request may have run';

/**
 * The forwarding side: requests for a session another instance holds. A
 * POST goes to the owner over its inbox; its answers come back as events,
 * answered with plain JSON while only responses come (as a local POST is)
 * and streamed (SSE) once anything else must go first. A GET is served here from the owner's
 * pushed events, after replaying the session's log from `Last-Event-ID`. If
 * the owner is dead, a resumption replays what the log kept and answers
 * every request still unanswered with an error; anything else is 404.
 */
@Injectable()
export class McpClusterRelay implements McpSessionRelay {
  /** The streams this instance relays now. */
  private readonly relaying = new Set<RelayedStream>();

  constructor(
    @Inject(MCP_CLUSTER_BUS) private readonly bus: McpClusterBus,
    @Inject(MCP_CLUSTER_DIRECTORY) private readonly directory: RedisSessionDirectory,
    @Inject(MCP_HTTP_SETTINGS) private readonly settings: McpHttpSettings,
  ) {
    // Events the holders pushed while the store was away are lost: no answer is coming.
    bus.health.onRecovered(() => {
      for (const relayed of [...this.relaying]) relayed.storeLost();
    });
  }

  async find(id: string, principal?: McpPrincipal): Promise<RemoteSession | undefined> {
    const entry: DirectoryEntry | undefined = await this.directory.find(id);
    if (!entry || entry.owner !== principalKey(principal)) return undefined;
    return { id, instance: entry.instance, owner: entry.owner };
  }

  async post(
    res: ServerResponse,
    session: RemoteSession,
    body: unknown,
    ids: RequestId[],
    principal?: McpPrincipal,
    stream = false,
  ): Promise<void> {
    await this.requireAlive(session);
    const operation = {
      op: 'post' as const,
      sid: session.id,
      pk: session.owner,
      // Only what JSON carries of the principal travels (claims are JSON already).
      principal:
        principal === undefined ? undefined : (JSON.parse(JSON.stringify(principal)) as unknown),
      body,
    };
    if (ids.length === 0) {
      const { reply } = await this.bus.request(session.instance, operation);
      this.refusedPost(reply);
      res.writeHead(202, { 'mcp-session-id': session.id }).end();
      return;
    }
    const relayed = new RelayedStream(ids, this.settings.maxQueuedEvents);
    const { reply, corr } = await this.bus.request(session.instance, operation, (event) =>
      relayed.receive(event),
    );
    this.refusedPost(reply);
    const streamId = reply.ok ? reply.stream : undefined;
    const json = stream ? undefined : { batch: Array.isArray(body) };
    const primeId = streamId ? `${streamId}.0` : undefined;
    this.serve(res, session, relayed, corr, streamId ?? '', primeId, [], json);
  }

  async get(res: ServerResponse, session: RemoteSession, lastEventId?: string): Promise<void> {
    const streamId = lastEventId === undefined ? STANDALONE : streamOf(lastEventId);
    if (streamId === undefined) throw new McpHttpError(404, 'Unknown event id');
    let alive = await this.alive(session);
    if (!alive && lastEventId === undefined) {
      this.directory.forget(session.id);
      throw new McpHttpError(404, SESSION_LOST);
    }
    const relayed = new RelayedStream([], this.settings.maxQueuedEvents);
    let corr = '';
    let known = false;
    let mark: string | undefined;
    if (alive) {
      const operation = {
        op: 'attach' as const,
        sid: session.id,
        pk: session.owner,
        stream: streamId,
      };
      const answer = await this.bus.request(session.instance, operation, (event) =>
        relayed.receive(event),
      );
      // Died after the liveness check (its key had not expired yet): replay what the log kept.
      if (!answer.reply.ok && answer.reply.gone) alive = false;
      else this.refused(answer.reply);
      corr = answer.corr;
      known = answer.reply.ok && answer.reply.known === true;
      mark = answer.reply.ok ? answer.reply.mark : undefined;
    }
    if (!alive && lastEventId === undefined) {
      this.directory.forget(session.id);
      throw new McpHttpError(404, SESSION_LOST);
    }
    if (lastEventId === undefined) {
      return this.serve(res, session, relayed, corr, STANDALONE, mark);
    }
    const entries = await this.directory.log.read(session.id).catch(() => {
      this.stop(session, corr);
      throw unavailable();
    });
    const replay = this.replayOf(entries, streamId, lastEventId);
    if (!replay.seen && !known) {
      this.stop(session, corr);
      throw new McpHttpError(404, 'Unknown event id');
    }
    for (const id of replay.opened) relayed.expect(id);
    for (const event of replay.sent) relayed.answered(event.data);
    this.serve(res, session, relayed, corr, streamId, undefined, replay.events);
    if (!alive) relayed.ownerStopped();
    else if (replay.ended || (!known && streamId !== STANDALONE)) relayed.end();
  }

  async delete(res: ServerResponse, session: RemoteSession): Promise<void> {
    await this.requireAlive(session);
    const { reply } = await this.bus.request(session.instance, {
      op: 'delete',
      sid: session.id,
      pk: session.owner,
    });
    this.refused(reply);
    res.writeHead(200).end();
  }

  private serve(
    res: ServerResponse,
    session: RemoteSession,
    relayed: RelayedStream,
    corr: string,
    streamId: string,
    primeId: string | undefined,
    replayed: { id: string; data: string }[] = [],
    json?: { batch: boolean },
  ): void {
    const { keepAliveMs, retryMs, maxQueuedEvents } = this.settings;
    this.relaying.add(relayed);
    relayed.onEnd(() => this.relaying.delete(relayed));
    relayed.onEnd(() => this.stop(session, corr, streamId));
    const unwatch = this.bus.watch(session.instance, () => relayed.ownerStopped());
    relayed.onEnd(unwatch);
    const options = { keepAliveMs, retryMs, maxQueued: maxQueuedEvents };
    const headers = { 'mcp-session-id': session.id };
    relayed.open({ res, sse: options, headers, primeId, json }, replayed);
  }

  /** Stops relaying `corr`, and tells the owner (when a stream was attached). */
  private stop(session: RemoteSession, corr: string, streamId?: string): void {
    if (!corr) return;
    this.bus.endTail(corr);
    if (streamId !== undefined) {
      const detach = { op: 'detach' as const, sid: session.id, stream: streamId, tail: corr };
      this.bus.send(session.instance, detach);
    }
  }

  /** What the log holds of `streamId`: events after `lastEventId`, the requests it answers, its end. */
  private replayOf(entries: LogEntry[], streamId: string, lastEventId: string) {
    const after = seqOf(lastEventId);
    const events: { id: string; data: string }[] = [];
    const sent: { id: string; data: string }[] = [];
    const opened: RequestId[] = [];
    let ended = false;
    let seen = false;
    for (const entry of entries) {
      if (entry.stream === '*' && entry.kind === 'ended') ended = true;
      if (entry.stream !== streamId) continue;
      seen = true;
      if (entry.kind === 'opened') opened.push(...entry.ids);
      else if (entry.kind === 'ended') ended = true;
      else if (entry.seq > after) events.push({ id: entry.id, data: entry.data });
      else sent.push({ id: entry.id, data: entry.data });
    }
    return { events, sent, opened, ended, seen };
  }

  private async requireAlive(session: RemoteSession): Promise<void> {
    if (await this.alive(session)) return;
    this.directory.forget(session.id);
    throw new McpHttpError(404, SESSION_LOST);
  }

  private alive(session: RemoteSession): Promise<boolean> {
    return this.bus.isAlive(session.instance).catch(() => {
      throw unavailable();
    });
  }

  private refused(reply: ClusterReply): void {
    if (reply.ok) return;
    throw new RelayedRefusal(reply.status, reply.message, reply.body);
  }

  /** A POST's refusal; unacknowledged, its outcome is unknown rather than refused. */
  private refusedPost(reply: ClusterReply): void {
    if (!reply.ok && reply.unknown) {
      throw new McpHttpError(504, POST_UNACKNOWLEDGED, JsonRpcErrorCode.OutcomeUnknown);
    }
    this.refused(reply);
  }
}

/** The owner's refusal, answered here with the owner's JSON-RPC body when it sent one. */
class RelayedRefusal extends McpHttpError {
  constructor(
    status: number,
    message: string,
    private readonly body?: unknown,
  ) {
    super(status, message);
  }

  override toBody(): object {
    return typeof this.body === 'object' && this.body !== null ? this.body : super.toBody();
  }
}
