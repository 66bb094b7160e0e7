import type { Authorizer } from '../../index.js';

const READ_METHODS = new Set([
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'resources/subscribe',
  'resources/unsubscribe',
  'subscriptions/listen',
]);

/**
 * The service's read policy: metadata and prompts are readable; resources are
 * readable only under the `notes://` scheme.
 */
export const notesReadPolicy: Authorizer = (method, args) => {
  if (method === 'resources/read') {
    return typeof args.uri === 'string' && args.uri.startsWith('notes://')
      ? { kind: 'allow' }
      : { kind: 'deny', reason: 'outside_notes' };
  }
  return READ_METHODS.has(method)
    ? { kind: 'allow' }
    : { kind: 'deny', reason: 'method_not_in_policy' };
};
