import { Controller, Param, Query, Req, Res, type Type } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { rawExchange } from '../../transports/http/mount/raw-exchange.js';
import { ConsoleDesk } from './console-desk.service.js';
import { renderMessagePage } from './console-page.renderer.js';
import { reply } from './console-reply.js';
import { consoleBase } from './console-request.js';
import { CONSOLE_SCRIPT } from './console-script.js';
import { ConsoleSignIn } from './console-sign-in.service.js';
import { CONSOLE_STYLE } from './console-style.js';

/** The console's routes: handler name, verb and path under the console path. */
export const CONSOLE_ROUTES = [
  ['page', 'get', ''],
  ['script', 'get', 'console.js'],
  ['style', 'get', 'console.css'],
  ['login', 'get', 'login'],
  ['callback', 'get', 'callback'],
  ['logout', 'post', 'logout'],
  ['events', 'get', 'events'],
  ['asks', 'get', 'asks'],
  ['ask', 'get', 'asks/:id'],
  ['decide', 'post', 'asks/:id/decision'],
  ['history', 'get', 'history'],
] as const;

const logger = new Logger('McpConsole');

/*
 * Answers with the handler's own response on the raw Node objects (Fastify's
 * reply is hijacked), so both adapters serve the same bytes; a failure is a
 * plain 500 page, never a stack trace.
 */
async function serve(
  req: object,
  res: object,
  segments: number,
  handler: (exchange: ReturnType<typeof rawExchange>, base: string) => Promise<void> | void,
): Promise<void> {
  const exchange = rawExchange(req, res);
  const base = consoleBase(exchange.req, segments);
  try {
    await handler(exchange, base);
  } catch (error) {
    logger.error(`console request failed: ${(error as Error).message}`);
    const out: ServerResponse = exchange.res;
    if (!out.headersSent) {
      reply(out, 500, 'html', renderMessagePage(base, 'Error', 'The console failed to answer.'));
    } else out.destroy();
  }
}

/**
 * The operator console's controller, made per module. It is declared
 * without routes: `bindConsoleRoutes` gives it its path and routes once the
 * options are resolved, and only when the console is configured, so an app
 * without a console has no route at the console path.
 */
export function createConsoleController(): Type {
  @Controller()
  class McpConsoleController {
    constructor(
      private readonly signIn: ConsoleSignIn,
      private readonly desk: ConsoleDesk,
    ) {}

    page(@Req() req: object, @Res() res: object, @Query('cursor') cursor?: string) {
      return serve(req, res, 0, ({ req: r, res: s }, base) => this.desk.page(r, s, base, cursor));
    }

    script(@Req() req: object, @Res() res: object) {
      return serve(req, res, 1, ({ res: s }) => reply(s, 200, 'js', CONSOLE_SCRIPT));
    }

    style(@Req() req: object, @Res() res: object) {
      return serve(req, res, 1, ({ res: s }) => reply(s, 200, 'css', CONSOLE_STYLE));
    }

    login(@Req() req: object, @Res() res: object, @Query('return') returnTo?: string) {
      return serve(req, res, 1, ({ res: s }, base) => this.signIn.login(s, base, returnTo));
    }

    callback(@Req() req: object, @Res() res: object) {
      return serve(req, res, 1, ({ req: r, res: s }, base) => this.signIn.callback(r, s, base));
    }

    logout(@Req() req: object, @Res() res: object) {
      return serve(req, res, 1, ({ req: r, res: s }, base) => this.signIn.logout(req, r, s, base));
    }

    events(@Req() req: object, @Res() res: object) {
      return serve(req, res, 1, ({ req: r, res: s }, base) => this.desk.events(r, s, base));
    }

    asks(@Req() req: object, @Res() res: object, @Query('cursor') cursor?: string) {
      return serve(req, res, 1, ({ req: r, res: s }, base) =>
        this.desk.pageJson(r, s, base, cursor),
      );
    }

    ask(@Req() req: object, @Res() res: object, @Param('id') id: string) {
      return serve(req, res, 2, ({ req: r, res: s }, base) => this.desk.askPage(r, s, base, id));
    }

    decide(@Req() req: object, @Res() res: object, @Param('id') id: string) {
      return serve(req, res, 3, ({ req: r, res: s }, base) =>
        this.desk.decide(req, r, s, base, id),
      );
    }

    history(@Req() req: object, @Res() res: object) {
      return serve(req, res, 1, ({ req: r, res: s }, base) => this.desk.historyPage(r, s, base));
    }
  }
  return McpConsoleController;
}
