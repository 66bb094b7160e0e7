import { Authorizers, type Authorizer, type McpModuleOptions } from '../../src/index.js';

/** The builders, for the simple cases and for tests. */
export const readOnly: Authorizer = Authorizers.allowlist(['find_tickets', 'get_ticket']);
export const nothing: Authorizer = Authorizers.denyAll('maintenance');
export const everything: Authorizer = Authorizers.allowAll();

/** Policies compose: `decide()` evaluates one as the server does (a throw denies). */
export const maintenanceAware =
  (inMaintenance: () => boolean, policy: Authorizer): Authorizer =>
  (name, args, context) =>
    inMaintenance()
      ? nothing(name, args, context)
      : Authorizers.decide(policy, name, args, context);

/** A policy on the caller: the principal is set by the transport, never by the request. */
export const byScope: Authorizer = (name, _args, { principal, transport }) => {
  if (transport === 'stdio') return { kind: 'allow' }; // the local user launched this process
  if (principal?.scopes.includes(`tools:${name}`)) return { kind: 'allow' };
  return { kind: 'deny', reason: 'missing_scope' };
};

export const options: McpModuleOptions = {
  name: 'tickets',
  version: '1.0.0',
  authorizer: maintenanceAware(() => false, byScope),
  authorizerSource: 'configured',
  readAuthorizer: Authorizers.allowAll(),
};
