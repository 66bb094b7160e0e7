import type { McpApprovalsSettings } from '../approvals-settings.interface.js';

const DEFAULT_SESSION_TTL_MS = 8 * 60 * 60_000;
/** A shorter secret is refused at boot: the console's cookies are sealed under it. */
const MIN_STATE_SECRET_CHARS = 16;

/** The console's options with every default applied; `enabled` only when it can sign operators in. */
export interface McpConsoleSettings {
  readonly enabled: boolean;
  /** Normalised: one leading slash, none trailing. */
  readonly path: string;
  readonly scope: string;
  /** The issuer operators sign in at: the API's own (`http.auth.issuer`). */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** The console's public origin (`oidc.publicUrl`): the only origin a decision may come from. */
  readonly origin: string;
  /** Scopes asked for at sign-in, `openid` first. */
  readonly scopes: readonly string[];
  readonly sessionTtlMs: number;
  readonly stateSecret?: string;
}

/**
 * The console's view of the resolved options (the path and the approver
 * scope are resolved with the other approvals options). The console is served only with an OIDC
 * client and an issuer to sign in at; an unusable `publicUrl` leaves it off
 * rather than guessing an origin from the request's Host header. A served console fails the
 * boot on a `stateSecret` shorter than 16 characters (a forged session is a forged approval).
 */
export function consoleSettingsOf(options: McpApprovalsSettings): McpConsoleSettings {
  const { console, scope, path } = options.approvals;
  const oidc = console?.oidc;
  const issuer = options.http.auth?.issuer ?? '';
  const origin = originOf(oidc?.publicUrl);
  const ttl = console?.sessionTtlMs;
  const enabled = Boolean(oidc?.clientId && issuer && origin);
  const secret = options.stateSecret;
  if (enabled && secret && secret.length < MIN_STATE_SECRET_CHARS) {
    throw new Error(
      `stateSecret must be at least ${MIN_STATE_SECRET_CHARS} characters: it seals the operator console's cookies`,
    );
  }
  return {
    enabled,
    path,
    scope,
    issuer,
    clientId: oidc?.clientId ?? '',
    clientSecret: oidc?.clientSecret || undefined,
    origin: origin ?? '',
    scopes: ['openid', ...(oidc?.scopes ?? [scope]).filter((s) => s !== 'openid')],
    sessionTtlMs:
      typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : DEFAULT_SESSION_TTL_MS,
    stateSecret: options.stateSecret || undefined,
  };
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
