import { Injectable, Logger } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { rawExchange } from '../../core/http/raw-exchange.js';
import { ConsoleAuditPages } from './console-audit.service.js';
import { ConsoleBodyReader } from './console-body.reader.js';
import { ConsoleDecisions } from './console-decisions.service.js';
import { renderMessagePage } from './console-page.renderer.js';
import { reply } from './console-reply.js';
import { consoleBase, queryParam, routeParam } from './console-request.js';
import { CONSOLE_SCRIPT } from './console-script.js';
import { ConsoleSignIn } from './console-sign-in.service.js';
import { CONSOLE_STYLE } from './console-style.js';

/** The console's routes: handler name, verb and path under the console path. */
export const CONSOLE_ROUTES: readonly (readonly [
  keyof ConsoleEndpoint & string,
  'get' | 'post',
  string,
])[] = [
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
  ['audit', 'get', 'audit'],
];

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
 * The operator console's handlers, one per route of `CONSOLE_ROUTES`. Not a
 * controller: `McpConsoleRoutes` mounts them on the HTTP adapter once the
 * options are resolved, and only when a console is configured, so an app
 * without one has neither a route nor a line in Nest's route log for it.
 */
@Injectable()
export class ConsoleEndpoint {
  constructor(
    private readonly signIn: ConsoleSignIn,
    private readonly desk: ConsoleDecisions,
    private readonly bodies: ConsoleBodyReader,
    private readonly audits: ConsoleAuditPages,
  ) {}

  page(req: object, res: object): Promise<void> {
    return serve(req, res, 0, ({ req: r, res: s }, base) =>
      this.desk.page(r, s, base, queryParam(r, 'cursor')),
    );
  }

  script(req: object, res: object): Promise<void> {
    return serve(req, res, 1, ({ res: s }) => reply(s, 200, 'js', CONSOLE_SCRIPT));
  }

  style(req: object, res: object): Promise<void> {
    return serve(req, res, 1, ({ res: s }) => reply(s, 200, 'css', CONSOLE_STYLE));
  }

  login(req: object, res: object): Promise<void> {
    return serve(req, res, 1, ({ req: r, res: s }, base) =>
      this.signIn.login(s, base, queryParam(r, 'return')),
    );
  }

  callback(req: object, res: object): Promise<void> {
    return serve(req, res, 1, ({ req: r, res: s }, base) => this.signIn.callback(r, s, base));
  }

  logout(req: object, res: object): Promise<void> {
    return serve(req, res, 1, async ({ req: r, res: s }, base) => {
      if (await this.bodies.prepare(req, r, s)) await this.signIn.logout(req, r, s, base);
    });
  }

  events(req: object, res: object): Promise<void> {
    return serve(req, res, 1, ({ req: r, res: s }, base) => this.desk.events(r, s, base));
  }

  asks(req: object, res: object): Promise<void> {
    return serve(req, res, 1, ({ req: r, res: s }, base) =>
      this.desk.pageJson(r, s, base, queryParam(r, 'cursor')),
    );
  }

  ask(req: object, res: object): Promise<void> {
    return serve(req, res, 2, ({ req: r, res: s }, base) =>
      this.desk.askPage(r, s, base, routeParam(req, 'id')),
    );
  }

  decide(req: object, res: object): Promise<void> {
    return serve(req, res, 3, async ({ req: r, res: s }, base) => {
      if (await this.bodies.prepare(req, r, s)) {
        await this.desk.decide(req, r, s, base, routeParam(req, 'id'));
      }
    });
  }

  history(req: object, res: object): Promise<void> {
    return serve(req, res, 1, ({ req: r, res: s }, base) => this.desk.historyPage(r, s, base));
  }

  audit(req: object, res: object): Promise<void> {
    return serve(req, res, 1, ({ req: r, res: s }, base) => this.audits.page(r, s, base));
  }
}
