import type { CedarValueJson, EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import { ANONYMOUS_ID, ENTITY } from './vocabulary.js';

/** How token claims become principal attributes and groups (`groupsClaim`, `claims`). */
export interface ClaimMapping {
  readonly groupsClaim?: string;
  readonly claims?: Readonly<Record<string, string>>;
}

/**
 * The principal's entity, built only from the verified principal: `Mcp::User` with its subject,
 * issuer, scopes, client id and mapped claims, its groups from `groupsClaim`; or the one
 * `Mcp::Anonymous` when no credential was verified.
 */
export function principalEntity(
  principal: McpPrincipal | undefined,
  mapping: ClaimMapping,
): EntityJson {
  if (!principal) {
    return { uid: { type: ENTITY.anonymous, id: ANONYMOUS_ID }, attrs: {}, parents: [] };
  }
  const claims = principal.claims ?? {};
  const attrs: Record<string, CedarValueJson> = {};
  for (const [attribute, claim] of Object.entries(mapping.claims ?? {})) {
    const value = scalar(claims[claim]);
    if (value !== undefined) attrs[attribute] = value;
  }
  attrs.subject = principal.subject;
  attrs.scopes = [...principal.scopes];
  if (principal.issuer !== undefined) attrs.issuer = principal.issuer;
  const clientId = scalar(claims.client_id ?? claims.azp);
  if (clientId !== undefined) attrs.clientId = clientId;
  const parents = groupsOf(mapping.groupsClaim ? claims[mapping.groupsClaim] : undefined).map(
    (id) => ({ type: ENTITY.group, id }),
  );
  return { uid: { type: ENTITY.user, id: principal.subject }, attrs, parents };
}

/* A mapped claim is a string attribute: numbers and booleans are spelled out, the rest left out. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/* A groups claim is a list of names, or one space-separated string (as scopes are). */
function groupsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  if (typeof value === 'string') return value.split(' ').filter(Boolean);
  return [];
}
