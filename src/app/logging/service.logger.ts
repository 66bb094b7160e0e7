import type { ConsoleLogger, LogLevel } from '@nestjs/common';
import { StderrLogger } from '../../index.js';
import type { LogLineWriter } from './log-line.writer.js';
import { stderrLines } from './stderr-lines.js';

type JsonOptions = Parameters<ConsoleLogger['printAsJson']>[1];

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
  private readonly lines?: LogLineWriter;

  /** `lines`: where the JSON lines go (by default the process's one stderr writer). */
  constructor(terminal: boolean = process.stderr.isTTY === true, lines?: LogLineWriter) {
    // A request's fields (connId, requestId, traceId) sit beside the message, not under `params`.
    super(undefined, { json: !terminal, colors: terminal, flattenParams: true });
    if (!terminal) this.lines = lines ?? stderrLines();
  }

  /* Nest's own record and its own JSON, handed to the writer instead of written here. */
  protected override printAsJson(message: unknown, options: JsonOptions): void {
    if (!this.lines) return super.printAsJson(message, options);
    this.lines.write(this.stringifyJsonLogObject(this.getJsonLogObject(message, options)) + '\n');
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
