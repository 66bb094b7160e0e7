import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';

/**
 * Nest's console logger, but every level goes to stderr: in stdio mode stdout
 * carries protocol messages and nothing else. Colours only when stderr is a
 * terminal (a client that logs the server's stderr gets plain text).
 * @publicApi
 */
export class StderrLogger extends ConsoleLogger {
  constructor(context?: string, options: ConsoleLoggerOptions = {}) {
    const withColors = { colors: process.stderr.isTTY === true, ...options };
    if (context === undefined) super(withColors);
    else super(context, withColors);
  }

  /**
   * ISO 8601 (UTC) instead of Nest's locale format: unambiguous in a log a
   * client collects, and it needs no `Intl.DateTimeFormat`, whose first use
   * maps about 10 MB of ICU data into a process that a desktop client may
   * start once per session.
   */
  protected override getTimestamp(): string {
    return new Date().toISOString();
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
