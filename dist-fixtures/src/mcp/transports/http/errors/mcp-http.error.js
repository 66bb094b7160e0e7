import { JsonRpcErrorCode } from '../../../protocol/error-codes.constants.js';
/**
 * An HTTP-level refusal. The transport answers it with `status` and a
 * JSON-RPC error body (never a bare 4xx: dual-era clients read the body to
 * tell a modern server from an old one).
 */
export class McpHttpError extends Error {
    constructor(status, message, code = JsonRpcErrorCode.InvalidRequest) {
        super(message);
        this.status = status;
        this.code = code;
        this.name = 'McpHttpError';
    }
    toBody() {
        return { jsonrpc: '2.0', id: null, error: { code: this.code, message: this.message } };
    }
}
//# sourceMappingURL=mcp-http.error.js.map