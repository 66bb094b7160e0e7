import { JsonRpcErrorCode } from '../protocol/error-codes.constants.js';
import { McpError } from '../protocol/mcp.errors.js';
/**
 * The tool seam refused a call. Not a JSON-RPC error: the dispatcher answers
 * with a `CallToolResult` (`isError: true`) so the model can read the reason.
 */
export class McpToolDeniedException extends Error {
    constructor(tool, decision, detail) {
        super(`authorization_required: ${tool}`);
        this.name = 'McpToolDeniedException';
        this.denial = { error: 'authorization_required', tool, decision, detail };
    }
    /** The wire result of this denial. */
    toResult() {
        return {
            content: [{ type: 'text', text: JSON.stringify(this.denial) }],
            structuredContent: { ...this.denial },
            isError: true,
        };
    }
}
/**
 * The tool seam answered `ask`. Whoever serves `tools/call` decides whether
 * this connection can be asked; if not, it resolves to the `decision: "ask"`
 * denial (with the prompt as its detail), so silence is never consent.
 */
export class McpToolApprovalRequiredException extends McpToolDeniedException {
    constructor(tool, prompt) {
        super(tool, 'ask', prompt);
        this.prompt = prompt;
        this.name = 'McpToolApprovalRequiredException';
    }
}
/** The read seam refused a read or metadata request: JSON-RPC error -31403. */
export class McpReadDeniedError extends McpError {
    constructor(method, detail) {
        super(JsonRpcErrorCode.AuthorizationRequired, `authorization_required: ${method}`, {
            error: 'authorization_required',
            method,
            detail,
        });
    }
}
//# sourceMappingURL=authorization.exceptions.js.map