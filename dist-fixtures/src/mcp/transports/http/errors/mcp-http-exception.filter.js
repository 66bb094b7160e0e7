var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};
import { Catch, HttpException, Logger } from '@nestjs/common';
import { JsonRpcErrorCode } from '../../../protocol/error-codes.constants.js';
import { McpHttpError } from './mcp-http.error.js';
/**
 * Turns whatever the MCP routes throw into a status with a JSON-RPC error
 * body. Anything unexpected is a 500 with no internal text.
 */
let McpHttpExceptionFilter = class McpHttpExceptionFilter {
    constructor() {
        this.logger = new Logger('McpHttp');
    }
    catch(exception, host) {
        const res = host.switchToHttp().getResponse();
        const error = toHttpError(exception);
        if (error.status >= 500)
            this.logger.error(exception?.stack ?? String(exception));
        if (res.headersSent) {
            res.end();
            return;
        }
        res.status(error.status).json(error.toBody());
    }
};
McpHttpExceptionFilter = __decorate([
    Catch()
], McpHttpExceptionFilter);
export { McpHttpExceptionFilter };
function toHttpError(exception) {
    if (exception instanceof McpHttpError)
        return exception;
    if (exception instanceof HttpException && exception.getStatus() < 500) {
        return new McpHttpError(exception.getStatus(), exception.message);
    }
    return new McpHttpError(500, 'Internal error', JsonRpcErrorCode.InternalError);
}
//# sourceMappingURL=mcp-http-exception.filter.js.map