/** Turns a prompt handler's messages array or full result into a `GetPromptResult`. */
export function normalizePromptResult(value, description) {
    if (Array.isArray(value)) {
        const result = { messages: value };
        if (description !== undefined)
            result.description = description;
        return result;
    }
    if (typeof value === 'object' &&
        value !== null &&
        Array.isArray(value.messages)) {
        return value;
    }
    throw new TypeError('prompt handler returned neither messages nor a GetPromptResult');
}
//# sourceMappingURL=prompt-result.normalizer.js.map