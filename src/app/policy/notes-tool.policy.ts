import type { Authorizer } from '../../index.js';

/** The scope that lets a caller delete notes without asking a human first. */
export const NOTES_ADMIN_SCOPE = 'notes:admin';

/**
 * The service's tool policy. Reads, creates and tags are allowed; a delete is
 * allowed for a caller holding `notes:admin` and needs a human's approval
 * otherwise; any other tool name is denied, so a tool added later is closed
 * until someone writes its rule here.
 */
export const notesToolPolicy: Authorizer = (name, args, context) => {
  switch (name) {
    case 'search_notes':
    case 'create_note':
    case 'tag_note':
    case 'suggest_title':
      return { kind: 'allow' };
    case 'delete_note': {
      // The principal comes from verified credentials only, so its scopes can be trusted.
      if (context.principal?.scopes.includes(NOTES_ADMIN_SCOPE)) return { kind: 'allow' };
      // Arguments are untrusted here (the seam runs before validation).
      const id = typeof args.id === 'string' ? args.id : '(unspecified)';
      return { kind: 'ask', prompt: `Delete note ${id}? This cannot be undone.` };
    }
    default:
      return { kind: 'deny', reason: 'tool_not_in_policy' };
  }
};
