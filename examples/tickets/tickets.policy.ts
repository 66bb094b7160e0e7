import type { Authorizer } from '../../src/index.js';

/**
 * The tool seam. Arguments are raw and untrusted here: the seam runs before
 * input validation. Any tool without a rule is denied, so a tool added later
 * stays closed until someone writes its rule.
 */
export const ticketsToolPolicy: Authorizer = (name, args, { principal }) => {
  const scopes = principal?.scopes ?? [];
  switch (name) {
    case 'find_tickets':
    case 'open_ticket':
      return { kind: 'allow' };
    case 'close_ticket': {
      // Agents with the scope close tickets; anyone else needs a human's yes.
      if (scopes.includes('tickets:close')) return { kind: 'allow' };
      const id = typeof args.id === 'string' ? args.id : '(no id)';
      return { kind: 'ask', prompt: `Close ticket ${id}?` };
    }
    case 'purge_closed':
      return scopes.includes('tickets:admin')
        ? { kind: 'ask', prompt: 'Delete every closed ticket? This cannot be undone.' }
        : { kind: 'deny', reason: 'admins_only' };
    default:
      return { kind: 'deny', reason: 'not_in_policy' };
  }
};

const READ_METHODS = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

/** The read seam: `name` is the JSON-RPC method; only `tickets://` resources are readable. */
export const ticketsReadPolicy: Authorizer = (method, args) => {
  if (method === 'resources/read') {
    return typeof args.uri === 'string' && args.uri.startsWith('tickets://')
      ? { kind: 'allow' }
      : { kind: 'deny', reason: 'outside_tickets' };
  }
  return READ_METHODS.has(method) ? { kind: 'allow' } : { kind: 'deny', reason: 'not_in_policy' };
};
