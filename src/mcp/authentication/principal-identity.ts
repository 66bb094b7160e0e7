/**
 * Who someone is, for comparing: the subject, and the issuer that vouched for it.
 * @publicApi
 */
export interface McpPrincipalIdentity {
  /** The subject (a token's `sub`); it names someone only as a non-empty string. */
  readonly subject?: unknown;
  /** The issuer that vouched for it (a token's `iss`), when there is one. */
  readonly issuer?: unknown;
}

/**
 * Whether `value` can name a subject or an issuer: a non-empty string
 * (RFC 7519 §4.1.1–2: `iss` and `sub` are StringOrURI). A number is refused,
 * not turned into text: `123` and `"123"` would otherwise be one person to
 * one check and two to another.
 */
export function isIdentityClaim(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/**
 * Whether `principal` names someone in a form every comparison can trust:
 * a subject, and an issuer that is either absent or a claim like the subject.
 */
export function hasPrincipalIdentity(principal: McpPrincipalIdentity | undefined): boolean {
  if (!principal || !isIdentityClaim(principal.subject)) return false;
  return principal.issuer === undefined || isIdentityClaim(principal.issuer);
}

/**
 * Whether `a` and `b` are the same person: the same subject within the same
 * issuer, compared exactly (docs/operator-approvals.md). `alice` and `Alice`
 * are two people, and so is `alice` from two issuers. Anything that does not
 * name someone (`hasPrincipalIdentity`) is nobody, the same as no one.
 *
 * @example
 * if (samePrincipal(ask.caller, operator)) return refuse('own call');
 * @publicApi
 */
export function samePrincipal(
  a: McpPrincipalIdentity | undefined,
  b: McpPrincipalIdentity | undefined,
): boolean {
  if (!hasPrincipalIdentity(a) || !hasPrincipalIdentity(b)) return false;
  return a!.subject === b!.subject && a!.issuer === b!.issuer;
}
