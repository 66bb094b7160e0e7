/** DI token of the resolved HTTP options. */
export const MCP_HTTP_OPTIONS = Symbol('MCP_HTTP_OPTIONS');
export function resolveHttpOptions(options) {
    const http = options.http ?? {};
    const path = '/' + (http.path ?? '/mcp').replace(/^\/+|\/+$/g, '');
    return {
        path,
        allowedOrigins: http.allowedOrigins ?? [],
        allowedHosts: http.allowedHosts ?? [],
        maxBodyBytes: http.maxBodyBytes ?? 4 * 1024 * 1024,
        maxSessions: http.maxSessions ?? 1_000,
        sessionIdleMs: http.sessionIdleMs ?? 30 * 60_000,
        eventBufferSize: http.eventBufferSize ?? 256,
        maxQueuedEvents: http.maxQueuedEvents ?? 1_000,
        keepAliveMs: http.keepAliveMs ?? 15_000,
        retryMs: http.retryMs ?? 1_000,
    };
}
//# sourceMappingURL=http-options.js.map