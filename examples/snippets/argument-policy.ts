import type { Authorizer } from '../../src/index.js';

/** The scope a caller needs to archive notes at all. */
export const NOTES_WRITE = 'notes:write';

/** Who wrote each note, as the policy looks it up (a store, a database). */
export interface NoteOwners {
  ownerOf(id: string): Promise<string | undefined>;
}

/**
 * A policy that decides on a tool's arguments, written for both purposes:
 * whether the caller may see `archive_note` (a `tools/list`, asked with `{}`)
 * depends only on the caller; whether a call may run depends on the note.
 * Its own notes archive at once, someone else's after a yes, an unknown id
 * never.
 */
export function archivePolicy(notes: NoteOwners): Authorizer {
  return async (name, args, { principal, purpose }) => {
    if (name !== 'archive_note') return { kind: 'deny', reason: 'not_in_policy' };
    // Who may ever archive is decided the same way for a listing and for a call.
    if (!principal?.scopes.includes(NOTES_WRITE)) return { kind: 'deny', reason: 'needs_scope' };
    // A visibility check carries no arguments: there is no note to look at yet, and a deny
    // here would hide the tool from everyone. Show it; the call is decided on its own id.
    if (purpose === 'visibility') return { kind: 'allow' };
    // A call: the arguments are raw and untrusted (the seam runs before schema validation).
    if (typeof args.id !== 'string') return { kind: 'deny', reason: 'invalid_id' };
    const owner = await notes.ownerOf(args.id);
    if (owner === undefined) return { kind: 'deny', reason: 'unknown_note' };
    if (owner === principal.subject) return { kind: 'allow' };
    return { kind: 'ask', prompt: `Archive note ${args.id}, written by ${owner}?` };
  };
}
