import { Controller, Get, Inject, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { McpWarden } from '../../../server/mcp-warden.service.js';
import { McpHttpExceptionFilter } from '../errors/mcp-http-exception.filter.js';
import { McpHttpError } from '../errors/mcp-http.error.js';
import { MCP_HTTP_OPTIONS, type ResolvedHttpOptions } from '../http-options.js';
import { readJsonBody } from '../security/json-body.reader.js';
import { McpOriginGuard } from '../security/origin.guard.js';
import { requireAccept } from '../streamable/accept.js';
import { LegacySseSessions } from './legacy-sse.sessions.service.js';

/** The deprecated HTTP+SSE pair: `GET /sse` opens the stream, `POST /messages` feeds it. */
@Controller()
@UseGuards(McpOriginGuard)
@UseFilters(McpHttpExceptionFilter)
export class McpLegacySseController {
  constructor(
    private readonly server: McpWarden,
    private readonly sessions: LegacySseSessions,
    @Inject(MCP_HTTP_OPTIONS) private readonly options: ResolvedHttpOptions,
  ) {}

  @Get('sse')
  open(@Req() req: Request, @Res() res: Response): void {
    requireAccept(req, ['text/event-stream']);
    this.sessions.open(res, '/messages');
  }

  /** Accepts one message (202); its answer, if any, goes out on the session's stream. */
  @Post('messages')
  async message(@Req() req: Request, @Res() res: Response): Promise<void> {
    const session = this.sessions.require(req.query.sessionId);
    const body = await readJsonBody(req, this.options.maxBodyBytes);
    if (Array.isArray(body))
      throw new McpHttpError(400, 'Invalid Request: batches are not supported');
    res.status(202).end('Accepted');
    const outcome = await this.server.dispatch(body, session.connId, {
      transport: 'http',
      httpRequest: req,
    });
    if (outcome.kind === 'reply') session.stream.send(JSON.stringify(outcome.message));
  }
}
