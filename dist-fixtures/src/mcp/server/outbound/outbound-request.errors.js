/** A server→client request (elicitation, sampling, roots) that ended without a result. */
export class McpOutboundRequestError extends Error {
    constructor(reason, message, error) {
        super(message);
        this.reason = reason;
        this.error = error;
        this.name = 'McpOutboundRequestError';
    }
}
//# sourceMappingURL=outbound-request.errors.js.map