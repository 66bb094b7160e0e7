import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/**
 * Nest's console logger, but every level goes to stderr: in stdio mode stdout
 * carries protocol messages and nothing else.
 * @publicApi
 */
export class StderrLogger extends ConsoleLogger {
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
