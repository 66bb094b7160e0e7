/** Where `notify_team` posts, and what it exchanges the caller's token for. */
export interface NotifyTeamSettings {
  /** The team API's endpoint that takes a notification (POST, JSON). */
  readonly url: string;
  /** The audience of the exchanged token: the team API's identifier at the issuer. */
  readonly audience: string;
  /** The scope asked for, if the team API wants one. */
  readonly scope?: string;
  /** The service's own client at the issuer, allowed the token exchange grant. */
  readonly clientId: string;
  readonly clientSecret: string;
}

export const NOTIFY_TEAM_SETTINGS = Symbol('NOTIFY_TEAM_SETTINGS');

/**
 * The optional team notifications, from the environment: `NOTIFY_TEAM_URL` turns them on, with
 * `NOTIFY_TEAM_AUDIENCE` (default: the URL's origin), `NOTIFY_TEAM_SCOPE` and the service's
 * client at the issuer, `TOKEN_EXCHANGE_CLIENT_ID` and `TOKEN_EXCHANGE_CLIENT_SECRET`. A
 * notification is sent as its caller, so it needs bearer auth (`OAUTH_ISSUER`) and HTTP: a
 * half-configured integration fails the boot rather than a call.
 */
export function notifyTeamFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): NotifyTeamSettings | undefined {
  const url = env.NOTIFY_TEAM_URL?.trim();
  if (!url) return undefined;
  if (!URL.canParse(url)) throw new Error('NOTIFY_TEAM_URL must be an absolute URL');
  const clientId = env.TOKEN_EXCHANGE_CLIENT_ID?.trim();
  const clientSecret = env.TOKEN_EXCHANGE_CLIENT_SECRET?.trim();
  if (!clientId || !clientSecret) {
    throw new Error(
      'NOTIFY_TEAM_URL needs TOKEN_EXCHANGE_CLIENT_ID and TOKEN_EXCHANGE_CLIENT_SECRET: ' +
        "the service's client at the issuer exchanges each caller's token",
    );
  }
  if (!env.OAUTH_ISSUER?.trim()) {
    throw new Error(
      'NOTIFY_TEAM_URL needs bearer auth (OAUTH_ISSUER, OAUTH_AUDIENCE): a notification is ' +
        "sent as its caller, with a token exchanged for the caller's own",
    );
  }
  const scope = env.NOTIFY_TEAM_SCOPE?.trim();
  return {
    url,
    audience: env.NOTIFY_TEAM_AUDIENCE?.trim() || new URL(url).origin,
    ...(scope ? { scope } : {}),
    clientId,
    clientSecret,
  };
}
