import type { Authorizer, AuthorizerContext, AuthorizerDecision } from '../../index.js';
import type { Note } from '../notes/note.interface.js';

/** The scope that lets a caller delete notes without asking a human first. */
export const NOTES_ADMIN_SCOPE = 'notes:admin';

/** Why a delete is denied when the note's author cannot be read (the store failed). */
export const NOTE_LOOKUP_FAILED = 'note_lookup_failed';

/** What the policy reads: a note's author, by id (the `NotesStore` in the service). */
export interface NoteAuthors {
  get(id: string): Promise<Note | undefined>;
}

const ALLOW: AuthorizerDecision = Object.freeze({ kind: 'allow' });

/**
 * The service's tool policy, built on the store so a delete can look at whose
 * note it is. Reads, creates and tags are allowed. A delete is allowed for a
 * caller holding `notes:admin`; of a note someone else wrote, it waits for an
 * operator (four eyes: the caller cannot approve it); of one's own note, of a
 * note without an author, or of an id the store does not know, it asks the
 * caller. Any other tool name is denied, so a tool added later is closed until
 * someone writes its rule here.
 */
export function notesToolPolicy(notes: NoteAuthors): Authorizer {
  return (name, args, context) => {
    switch (name) {
      case 'search_notes':
      case 'create_note':
      case 'tag_note':
      case 'suggest_title':
        return ALLOW;
      case 'delete_note':
        return deleteDecision(notes, args, context);
      default:
        return { kind: 'deny', reason: 'tool_not_in_policy' };
    }
  };
}

function deleteDecision(
  notes: NoteAuthors,
  args: Record<string, unknown>,
  context: AuthorizerContext,
): AuthorizerDecision | Promise<AuthorizerDecision> {
  // The principal comes from verified credentials only, so its scopes can be trusted.
  if (context.principal?.scopes.includes(NOTES_ADMIN_SCOPE)) return ALLOW;
  // Arguments are untrusted here (the seam runs before validation). Without a usable id there is
  // no note to look up (tools/list asks with none): ask the caller, as the tool will refuse it.
  if (typeof args.id !== 'string' || args.id === '') return askCaller('(unspecified)');
  const id = args.id;
  return notes.get(id).then(
    (note) => {
      // An unknown id asks the caller: the tool then says there is no such note. Who wrote what
      // is no secret here (every caller may search and read every note).
      const author = note?.author;
      if (author === undefined || author === context.principal?.subject) return askCaller(id);
      // Someone else's note (an anonymous caller is nobody's author): a person other than the
      // caller decides.
      return {
        kind: 'ask',
        prompt: `Delete note ${id}, written by ${author}? This cannot be undone.`,
        approver: 'operator',
      } as const;
    },
    // Whose note it is cannot be known: fail closed, never allow (and never ask the caller,
    // who might be approving the deletion of someone else's note).
    (): AuthorizerDecision => ({ kind: 'deny', reason: NOTE_LOOKUP_FAILED }),
  );
}

function askCaller(id: string): AuthorizerDecision {
  return { kind: 'ask', prompt: `Delete note ${id}? This cannot be undone.` };
}
