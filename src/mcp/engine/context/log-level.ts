import type { LoggingLevel } from '../../core/protocol/mcp-types.js';

/** RFC 5424 severities, least severe first. */
const ORDER: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/** True when a message at `level` passes a connection whose threshold is `threshold`. */
export function passesLogLevel(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return ORDER[level] >= ORDER[threshold];
}
