/**
 * The service's tool policy. Reads, creates and tags are allowed; a delete needs a
 * human's approval; any other tool name is denied, so a tool added later is
 * closed until someone writes its rule here.
 */
export const notesToolPolicy = (name, args) => {
    switch (name) {
        case 'search_notes':
        case 'create_note':
        case 'tag_note':
        case 'suggest_title':
            return { kind: 'allow' };
        case 'delete_note': {
            // Arguments are untrusted here (the seam runs before validation).
            const id = typeof args.id === 'string' ? args.id : '(unspecified)';
            return { kind: 'ask', prompt: `Delete note ${id}? This cannot be undone.` };
        }
        default:
            return { kind: 'deny', reason: 'tool_not_in_policy' };
    }
};
//# sourceMappingURL=notes-tool.policy.js.map