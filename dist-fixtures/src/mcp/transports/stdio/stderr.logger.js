import { ConsoleLogger } from '@nestjs/common';
/**
 * Nest's console logger, but every level goes to stderr: in stdio mode stdout
 * carries protocol messages and nothing else.
 */
export class StderrLogger extends ConsoleLogger {
    printMessages(messages, context, logLevel, _writeStreamType, errorStack, params) {
        super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
    }
}
//# sourceMappingURL=stderr.logger.js.map