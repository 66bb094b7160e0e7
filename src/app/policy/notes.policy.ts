import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpPolicies, type McpCedarEntity, type McpPolicyConfig } from '../../index.js';
import type { Note } from '../notes/note.interface.js';

/** What the policy reads: a note's author, by id (the `NotesStore` in the service). */
export interface NoteAuthors {
  get(id: string): Promise<Note | undefined>;
}

/**
 * The service's policy: the Cedar files in `policies/` decide both seams (`POLICY_DIR` points
 * elsewhere; `POLICY_WATCH=1` applies edits without a restart). A delete's decision depends on
 * whose note it is, which no token says: the `entities` hook looks the note up and tags the
 * server with its author, or with `lookup: failed` when the store cannot say (a rule then
 * denies, failing closed). With `notifyTeam`, `integrations/notify-team.cedar` joins the set.
 */
export function notesPolicy(
  notes: NoteAuthors,
  { notifyTeam = false }: { notifyTeam?: boolean } = {},
): McpPolicyConfig {
  const dir = policyDir();
  return McpPolicies.cedar({
    // The team notifications' rule only when they are on (policies/integrations/).
    policies: notifyTeam
      ? [{ dir }, { file: join(dir, 'integrations', 'notify-team.cedar') }]
      : { dir },
    watch: process.env.POLICY_WATCH === '1',
    // Synchronous unless there is a note to look up: a promise here would make every call's
    // decision asynchronous, and the seam bounds each asynchronous decision with a timer.
    entities: (_principal, _context, call) => {
      if (call.action !== 'delete_note' || call.purpose !== 'call') return [];
      const id = call.arguments.id;
      // Arguments are untrusted here (the seam runs before validation): no usable id, no lookup.
      if (typeof id !== 'string' || id === '') return [];
      return authorTags(notes, id, call.resource);
    },
  });
}

/* The note's author as a tag on the call's resource, or `lookup: failed` (the policy denies). */
async function authorTags(
  notes: NoteAuthors,
  id: string,
  resource: McpCedarEntity['uid'],
): Promise<McpCedarEntity[]> {
  let author: string | undefined;
  try {
    author = (await notes.get(id))?.author;
  } catch {
    return [tagged(resource, { lookup: 'failed' })];
  }
  return author === undefined ? [] : [tagged(resource, { author })];
}

function tagged(uid: McpCedarEntity['uid'], tags: Record<string, string>): McpCedarEntity {
  return { uid, tags };
}

/**
 * `POLICY_DIR`, else the `policies/` folder of the package: found by walking up from this
 * module, which sits at a different depth in the sources and in the bundle.
 */
export function policyDir(): string {
  if (process.env.POLICY_DIR) return process.env.POLICY_DIR;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'policies');
    if (existsSync(join(candidate, 'notes-tools.cedar'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('The notes service cannot find its policies/ folder');
    dir = parent;
  }
}
