import { ElicitRequestFormParamsSchema, ElicitRequestURLParamsSchema, } from '@modelcontextprotocol/core';
import { randomUUID } from 'node:crypto';
import { McpToolError } from '../tools/mcp-tool.error.js';
/** Whether the caller's client declared elicitation in `mode` (`{}` means form, spec 2025-11-25). */
export function canElicit(request, mode) {
    const declared = request.connection.capabilities?.elicitation;
    if (!declared)
        return false;
    if (mode === 'form' && Object.keys(declared).length === 0)
        return true;
    return declared[mode] !== undefined;
}
/**
 * The server→client requests a handler may make, each only if the caller's
 * client declared the capability at `initialize` (spec: never use a
 * capability the client did not declare). A missing capability is a clear
 * tool error, never a request the client cannot answer.
 */
export function clientRequestsFor(request) {
    const declared = (capability, mode) => {
        const ok = mode
            ? canElicit(request, mode)
            : request.connection.capabilities?.[capability] !== undefined;
        if (!ok) {
            const what = mode === 'url' ? 'URL-mode elicitation' : `the ${capability} capability`;
            throw new McpToolError(`The client did not declare ${what}`);
        }
    };
    return {
        async elicit(message, requestedSchema) {
            declared('elicitation', 'form');
            const params = { message, requestedSchema };
            const checked = ElicitRequestFormParamsSchema.safeParse(params);
            if (!checked.success) {
                throw new TypeError(`elicit(): requestedSchema is outside the spec's primitive subset`);
            }
            return (await request.requestClient('elicitation/create', params));
        },
        async elicitUrl(message, url) {
            declared('elicitation', 'url');
            const params = { mode: 'url', message, url, elicitationId: randomUUID() };
            if (!ElicitRequestURLParamsSchema.safeParse(params).success) {
                throw new TypeError('elicitUrl(): url must be a valid URL');
            }
            return (await request.requestClient('elicitation/create', params));
        },
        async sample(params) {
            declared('sampling');
            return (await request.requestClient('sampling/createMessage', params));
        },
        async listRoots() {
            declared('roots');
            return (await request.requestClient('roots/list', {}));
        },
    };
}
//# sourceMappingURL=client-requests.js.map