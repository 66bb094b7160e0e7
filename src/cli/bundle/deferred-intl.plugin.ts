import type { Plugin } from 'esbuild';
import { rewriteOnLoad } from './source-rewrite.js';

/*
 * Nest's ConsoleLogger and Logger each build an `Intl.DateTimeFormat` when @nestjs/common is
 * imported, which maps about 10 MB of ICU data into every process, used or not (a logger that
 * prints no locale timestamp, like the framework's StderrLogger, never formats with it). In a
 * bundle, those two statements are made lazy: a formatter is built the first time a timestamp is
 * formatted.
 */
const LOGGERS = /[\\/]@nestjs[\\/]common[\\/]services[\\/](console-logger|logger)\.service\.js$/;
const EAGER = 'const dateTimeFormatter = new Intl.DateTimeFormat(';
const LAZY =
  'let wardenDateTimeFormat;\n' +
  'const dateTimeFormatter = { format: (date) => (wardenDateTimeFormat ??= wardenMakeFormat()).format(date) };\n' +
  'const wardenMakeFormat = () => new Intl.DateTimeFormat(';

/**
 * The esbuild plugin. A Nest release that words the statement differently is bundled as it is,
 * with a warning: the bundle is then as Nest ships it, only bigger in memory.
 */
export function deferredIntlPlugin(): Plugin {
  return {
    name: 'mcp-warden-deferred-intl',
    setup(build) {
      rewriteOnLoad(
        build,
        LOGGERS,
        (source) => (source.includes(EAGER) ? source.replace(EAGER, LAZY) : undefined),
        "Nest's eager Intl.DateTimeFormat not found",
      );
    },
  };
}
