/**
 * Turns what a tool handler returned into a `CallToolResult`: a string is one
 * text block; an array is the content; an object with a `content` array is
 * taken as the full result; any other object is sent as `structuredContent`
 * plus its JSON text; nothing is an empty content list.
 */
export function normalizeToolResult(value) {
    if (value === undefined || value === null)
        return { content: [] };
    if (typeof value === 'string')
        return { content: [{ type: 'text', text: value }] };
    if (Array.isArray(value))
        return { content: value };
    if (typeof value === 'object') {
        if (Array.isArray(value.content))
            return value;
        return {
            content: [{ type: 'text', text: JSON.stringify(value) }],
            structuredContent: value,
        };
    }
    return { content: [{ type: 'text', text: String(value) }] };
}
/** A tool result reporting a failure the model may read. */
export function toolErrorResult(text) {
    return { content: [{ type: 'text', text }], isError: true };
}
//# sourceMappingURL=tool-result.normalizer.js.map