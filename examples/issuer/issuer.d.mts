/** What `startExampleIssuer` is configured with; only `resource` and `consoleRedirectUris` are required. */
export interface ExampleIssuerOptions {
  /** The MCP server's URL, its `http.auth.audience`: the only resource tokens are issued for. */
  resource: string;
  /** The console's callbacks, `<publicUrl><global prefix><console path>/callback`. */
  consoleRedirectUris: string[];
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 4000; 0 picks a free port. */
  port?: number;
  /** Default `warden-console`. */
  consoleClientId?: string;
  /** Makes the console a confidential client (`client_secret_post`). Default: public. */
  consoleClientSecret?: string;
  /** The agents' client-credentials clients (a secret is random unless given). Default one, `warden-agent`. */
  agents?: { clientId: string; clientSecret?: string }[];
  /** Default `mcp:approve` (the console's `scope`). */
  approverScope?: string;
  /** Accounts granted the approver scope. Default `['olivia']`. */
  approvers?: string[];
  /** Scopes of the MCP server an agent may ask for. Default `['notes:read', 'notes:write']`. */
  agentScopes?: string[];
  /** Access token lifetime, seconds. Default 600. */
  accessTokenTtl?: number;
  /** oidc-provider's storage adapter. Default: its in-memory development adapter. */
  adapter?: unknown;
}

export interface ExampleIssuer {
  /** The issuer URL (`iss`): the MCP server's `http.auth.issuer`. */
  readonly url: string;
  readonly consoleClient: { readonly clientId: string; readonly clientSecret?: string };
  readonly agentClients: readonly { readonly clientId: string; readonly clientSecret: string }[];
  close(): Promise<void>;
}

export function startExampleIssuer(options: ExampleIssuerOptions): Promise<ExampleIssuer>;
