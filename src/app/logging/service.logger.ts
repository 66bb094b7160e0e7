import type { LogLevel } from '@nestjs/common';
import { StderrLogger } from '../../index.js';

/** Nest's start-up chatter (modules loaded, routes mapped, "successfully started"): debug, not log. */
const START_UP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Levels printed unless NEST_LOG_LEVEL says otherwise (debug and verbose are opt-in). */
const SERVICE_LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log'];

/**
 * The service's logger: every line on stderr (stdout belongs to the protocol
 * in stdio mode, and to nobody in HTTP mode), one JSON object per line when
 * stderr is not a terminal (a log collector reads it), coloured text only on
 * a terminal. Nest's start-up lines go to debug: over HTTP they are noise,
 * and "successfully started" would print before a port turned out busy. The
 * listen failure itself is left to `main`, which says it once and exits 1.
 */
export class ServiceLogger extends StderrLogger {
  constructor(terminal: boolean = process.stderr.isTTY === true) {
    // A request's fields (connId, requestId, traceId) sit beside the message, not under `params`.
    super(undefined, { json: !terminal, colors: terminal, flattenParams: true });
  }

  override log(message: unknown, ...rest: unknown[]): void {
    if (START_UP_CONTEXTS.has(this.contextOf(rest))) super.debug(message, ...rest);
    else super.log(message, ...rest);
  }

  override error(message: unknown, ...rest: unknown[]): void {
    if (this.contextOf(rest) === 'NestApplication' && /^Error: listen /.test(String(message))) {
      return;
    }
    super.error(message, ...rest);
  }

  protected override getDefaultLogLevels(): LogLevel[] {
    return process.env.NEST_LOG_LEVEL ? super.getDefaultLogLevels() : SERVICE_LOG_LEVELS;
  }

  /* A Logger passes its context as the last argument; otherwise this logger's own. */
  private contextOf(rest: unknown[]): string {
    const last = rest.at(-1);
    return typeof last === 'string' ? last : (this.context ?? '');
  }
}
