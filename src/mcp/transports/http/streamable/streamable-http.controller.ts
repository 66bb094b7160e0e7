import {
  Controller,
  Delete,
  Get,
  Inject,
  Post,
  Req,
  Res,
  UseFilters,
  UseGuards,
  type Type,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { JsonRpcMessage } from '../../../protocol/jsonrpc.js';
import { BATCHING_PROTOCOL_VERSION } from '../../../protocol/protocol-version.js';
import { McpServer } from '../../../server/mcp.server.js';
import { McpHttpExceptionFilter } from '../errors/mcp-http-exception.filter.js';
import { McpHttpError } from '../errors/mcp-http.error.js';
import { MCP_HTTP_OPTIONS, type ResolvedHttpOptions } from '../http-options.js';
import { readJsonBody } from '../security/json-body.reader.js';
import { McpOriginGuard } from '../security/origin.guard.js';
import type { McpHttpSession } from '../session/http-session.js';
import { McpHttpSessions } from '../session/http-sessions.service.js';
import { requireAccept } from './accept.js';
import { classify } from './message-kind.js';
import { checkProtocolVersionHeader } from './protocol-version.header.js';

const JSON_AND_SSE = ['application/json', 'text/event-stream'];

/**
 * Builds the Streamable HTTP controller for `path` (a controller's route is
 * static metadata, so each configured path gets its own class).
 */
export function createStreamableHttpController(path: string): Type {
  @Controller()
  @UseGuards(McpOriginGuard)
  @UseFilters(McpHttpExceptionFilter)
  class McpStreamableHttpController {
    constructor(
      private readonly server: McpServer,
      private readonly sessions: McpHttpSessions,
      @Inject(MCP_HTTP_OPTIONS) private readonly options: ResolvedHttpOptions,
    ) {}

    /** One message or a 2025-03-26 batch: 202 for notifications/responses, else JSON or SSE. */
    @Post(path)
    async post(@Req() req: Request, @Res() res: Response): Promise<void> {
      requireAccept(req, JSON_AND_SSE);
      checkProtocolVersionHeader(req);
      const body = await readJsonBody(req, this.options.maxBodyBytes);
      const batch = Array.isArray(body);
      const messages: unknown[] = batch ? body : [body];
      const kinds = messages.map(classify);
      if (messages.length === 0 || (batch && kinds.some((k) => k.kind === 'invalid'))) {
        throw new McpHttpError(400, 'Invalid Request');
      }
      const first = kinds[0];
      const initialize = !batch && first.kind === 'request' && first.method === 'initialize';
      const session = initialize ? this.sessions.create() : this.sessionOf(req);
      if (batch && session.protocolVersion !== BATCHING_PROTOCOL_VERSION) {
        throw new McpHttpError(400, 'Invalid Request: batches are not supported by this session');
      }
      if (first.kind === 'invalid') {
        const reply = await this.server.handleMessage(body, session.connId);
        res.status(400).json(reply);
        return;
      }
      const ids = kinds.flatMap((kind) => (kind.kind === 'request' ? [kind.id] : []));
      if (ids.length === 0) {
        await Promise.all(messages.map((m) => this.server.handleMessage(m, session.connId)));
        res.status(202).end();
        return;
      }
      const exchange = session.openExchange(res, ids, batch);
      messages.forEach((message, index) => {
        const kind = kinds[index];
        void this.server.handleMessage(message, session.connId).then((reply) => {
          if (kind.kind !== 'request') return;
          if (reply) {
            if (initialize) this.initialized(session, reply as JsonRpcMessage);
            exchange.deliver(reply as JsonRpcMessage);
          } else if (!this.server.isInFlight(session.connId, kind.id)) {
            exchange.abandon(kind.id);
          }
        });
      });
    }

    /** The session's standalone stream, or (with `Last-Event-ID`) a resumed one. */
    @Get(path)
    get(@Req() req: Request, @Res() res: Response): void {
      requireAccept(req, ['text/event-stream']);
      checkProtocolVersionHeader(req);
      const session = this.sessionOf(req);
      const lastEventId = req.headers['last-event-id'];
      if (typeof lastEventId === 'string') {
        if (!session.resume(res, lastEventId)) throw new McpHttpError(404, 'Unknown event id');
        return;
      }
      if (!session.openStandalone(res)) {
        throw new McpHttpError(409, 'Conflict: this session already has a standalone stream');
      }
    }

    /** Ends the session; later requests with its id get 404. */
    @Delete(path)
    delete(@Req() req: Request, @Res() res: Response): void {
      checkProtocolVersionHeader(req);
      const session = this.sessionOf(req);
      this.sessions.delete(session.id);
      res.status(200).end();
    }

    private sessionOf(req: Request): McpHttpSession {
      const header = req.headers['mcp-session-id'];
      return this.sessions.require(typeof header === 'string' ? header : undefined);
    }

    private initialized(session: McpHttpSession, reply: JsonRpcMessage): void {
      const result = reply.result as { protocolVersion?: string } | undefined;
      if (result?.protocolVersion) session.protocolVersion = result.protocolVersion;
      // A failed initialize leaves no session behind.
      else this.sessions.delete(session.id);
    }
  }
  return McpStreamableHttpController;
}
