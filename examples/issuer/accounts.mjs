// Who the people signing in are, and which of them may approve. A development stand-in for an
// identity provider's user directory and its role mapping: there are no passwords here.

/** oidc-provider's `findAccount`: any account name exists, and its only claim is `sub`. */
export function findAccount(_ctx, accountId) {
  return { accountId, claims: async () => ({ sub: accountId }) };
}

/**
 * oidc-provider's `loadExistingGrant`, which decides the console client's grant without a consent
 * screen (a first-party client: the organisation, not the operator, decides what it may do).
 * `openid` for everyone; the approver scope only for the accounts in `approvers`, and refused
 * outright to the others, so their sign-in ends at the console's "Not an approver" page instead
 * of at a consent prompt. Any other client gets no grant here.
 */
export function consoleGrants({ consoleClientId, approverScope, approvers }) {
  return async function loadExistingGrant(ctx) {
    const { client, session, provider } = ctx.oidc;
    const existing = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
    if (existing) return provider.Grant.find(existing);
    if (client.clientId !== consoleClientId) return undefined;
    const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
    grant.addOIDCScope('openid');
    if (approvers.includes(session.accountId)) grant.addOIDCScope(approverScope);
    else grant.rejectOIDCScope(approverScope);
    await grant.save();
    return grant;
  };
}
