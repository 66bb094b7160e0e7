import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { quotaKeyOf } from '../../authentication/quota-key.js';
import { McpClientGoneError } from '../../core/http/client-gone.error.js';
import { McpHttpError } from '../../core/http/mcp-http.error.js';
import { McpBodyReader } from '../../core/http/body-reader.service.js';
import { readCookie } from './console-cookies.js';
import { replyJson } from './console-reply.js';
import { fieldsOfBody, sameOrigin } from './console-request.js';
import type { McpConsoleSettings } from './console-settings.js';
import {
  MAX_DECISION_BODY_BYTES,
  MCP_CONSOLE_SETTINGS,
  SESSION_COOKIE,
} from './console.constants.js';

/**
 * Reads the body of a console POST (a decision, a sign-out) before its
 * handler runs, the way the MCP endpoint reads its own: only once the cheap
 * checks pass, bounded and under a deadline. The app's body parsers are kept
 * off the console's routes, so nothing else reads it.
 *
 * A body is worth reading only from the console's own page: the request
 * carries the session cookie and the console's Origin. Any other request is
 * refused by its handler whatever its body says (401 signed out, 403 not the
 * console's page, or a sign-out with nothing to sign out of), so its body is
 * never read and its connection closes with the answer: a client without
 * credentials holds no socket past it. A body that is read is the shared
 * reader's: `MAX_DECISION_BODY_BYTES` (413), `limits.bodyTimeoutMs` (408),
 * and the byte budget all uploads share (429/503).
 */
@Injectable()
export class ConsoleBodyReader {
  constructor(
    private readonly bodies: McpBodyReader,
    @Inject(MCP_CONSOLE_SETTINGS) private readonly settings: McpConsoleSettings,
  ) {}

  /**
   * Leaves the body's fields where the handlers read them (`readFields`), or
   * answers the request itself; false once it answered (the handler must
   * not run).
   */
  async prepare(wrapper: object, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    // Until the body is read whole, the answer ends the connection (Node would wait for the rest).
    res.setHeader('Connection', 'close');
    if (!this.worthReading(req)) {
      setBody(wrapper, {});
      return true;
    }
    let bytes: Buffer;
    try {
      bytes = await this.bodies.readBytes(
        req,
        quotaKeyOf(undefined, req, 'console'),
        MAX_DECISION_BODY_BYTES,
      );
    } catch (error) {
      if (error instanceof McpClientGoneError) res.destroy();
      else if (error instanceof McpHttpError)
        replyJson(res, error.status, { problem: error.message });
      else throw error;
      return false;
    }
    res.removeHeader('Connection');
    setBody(wrapper, fieldsOfBody(bytes.toString('utf8')));
    return true;
  }

  /* The console's page sends both; no one else gets its body read. */
  private worthReading(req: IncomingMessage): boolean {
    return sameOrigin(req, this.settings.origin) && readCookie(req, SESSION_COOKIE) !== undefined;
  }
}

/* Where an adapter's parser would have left it: the handlers take a parsed body as is. */
function setBody(wrapper: object, fields: Record<string, unknown>): void {
  (wrapper as { body?: unknown }).body = fields;
}
