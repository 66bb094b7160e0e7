import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { McpWarden } from '../../../engine/mcp-warden.service.js';
import { McpHttpError } from '../../../core/http/mcp-http.error.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { MCP_HTTP_SETTINGS, type McpHttpSettings } from '../http-settings.js';
import type { RawExchange } from '../../../core/http/raw-exchange.js';
import { requestPath } from '../../../core/http/request-path.js';
import { McpBodyReader } from '../../../core/http/body-reader.service.js';
import { quotaKeyOf } from '../../../authentication/quota-key.js';
import { McpCallRateLimiter } from '../security/call-rate.limiter.js';
import { McpHttpGate } from '../security/http-gate.service.js';
import { classify } from '../streamable/message-kind.js';
import { requireAccept } from '../streamable/accept.js';
import { SsePairSessions } from './sse-pair.sessions.service.js';

/** The deprecated HTTP+SSE pair: `GET …/sse` opens the stream, `POST …/messages` feeds it. */
@Injectable()
export class SsePairEndpoint {
  private readonly logger = new Logger('McpHttp');

  constructor(
    private readonly server: McpWarden,
    private readonly sessions: SsePairSessions,
    private readonly gate: McpHttpGate,
    private readonly rate: McpCallRateLimiter,
    private readonly bodies: McpBodyReader,
    @Inject(MCP_HTTP_SETTINGS) private readonly settings: McpHttpSettings,
  ) {}

  /** Opens the stream and announces where to POST: beside this route, prefix included. */
  async open({ req, res }: RawExchange): Promise<void> {
    try {
      const principal = await this.gate.admit(req);
      requireAccept(req, ['text/event-stream']);
      this.sessions.open(res, messagesPathOf(req), principal, quotaKeyOf(principal, req, ''));
    } catch (error) {
      sendHttpError(res, error, this.logger);
    }
  }

  /** Accepts one message (202); its answer, if any, goes out on the session's stream. */
  async message({ req, res }: RawExchange, adapterRequest: object): Promise<void> {
    try {
      const principal = await this.gate.admit(req);
      this.sessions.require(sessionIdOf(req), principal);
      const body = await this.bodies.read(req, quotaKeyOf(principal, req, ''));
      // Again: the stream may have closed while the body arrived, and a message for a
      // session that is gone must not bring its connection back.
      const session = this.sessions.require(sessionIdOf(req), principal);
      if (Array.isArray(body)) {
        throw new McpHttpError(400, 'Invalid Request: batches are not supported');
      }
      if (classify(body).kind === 'request')
        await this.rate.take(quotaKeyOf(principal, req, ''), 1);
      res.writeHead(202).end('Accepted');
      const outcome = await this.server.dispatch(body, session.connId, {
        transport: 'http',
        principal,
        httpRequest: adapterRequest as IncomingMessage,
      });
      if (outcome.kind === 'reply') session.stream.send(JSON.stringify(outcome.message));
    } catch (error) {
      sendHttpError(res, error, this.logger);
    }
  }
}

/* `/api/sse` → `/api/messages`: the announced endpoint keeps the app's global prefix. */
function messagesPathOf(req: IncomingMessage): string {
  return requestPath(req).replace(/\/sse\/?$/, '/messages');
}

function sessionIdOf(req: IncomingMessage): string | undefined {
  const url = new URL(req.url ?? '/', 'http://localhost');
  return url.searchParams.get('sessionId') ?? undefined;
}
