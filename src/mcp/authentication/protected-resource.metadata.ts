import type { IncomingMessage } from 'node:http';
import { requestPath } from '../core/http/request-path.js';
import type { McpBearerAuthOptions } from './auth-options.interface.js';

/** RFC 9728's well-known path prefix. */
export const PRM_PATH = '/.well-known/oauth-protected-resource';

/**
 * The protected resource metadata URL for the resource a request reached
 * (RFC 9728 §3.1: the well-known segment goes between the origin and the
 * resource's path). With bearer auth the resource is the configured audience,
 * this server's canonical URI; with only a custom hook it is read off the
 * request, whose Host the Origin/Host check already allowed.
 */
export function protectedResourceMetadataUrl(
  req: IncomingMessage,
  auth: McpBearerAuthOptions | undefined,
): string {
  const resource = auth ? new URL([auth.audience].flat()[0]) : requestUrl(req);
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/+$/, '');
  return `${resource.origin}${PRM_PATH}${path}`;
}

/** Where a server with bearer auth serves its metadata: the well-known path, then its audience's. */
export function protectedResourcePath(auth: McpBearerAuthOptions): string {
  const resource = new URL([auth.audience].flat()[0]!).pathname;
  return `${PRM_PATH}${resource === '/' ? '' : resource.replace(/\/+$/, '')}`;
}

/** The protected resource metadata document (RFC 9728 §2). */
export function protectedResourceMetadata(
  req: IncomingMessage,
  auth: McpBearerAuthOptions | undefined,
): Record<string, unknown> {
  // Without a configured audience, the resource is the path the metadata URL was formed from.
  const resource = auth ? [auth.audience].flat()[0] : resourceOfMetadataRequest(req);
  const metadata: Record<string, unknown> = {
    resource,
    authorization_servers: auth ? (auth.authorizationServers ?? [auth.issuer]) : [],
    bearer_methods_supported: ['header'],
  };
  if (auth?.requiredScopes?.length) metadata.scopes_supported = auth.requiredScopes;
  return metadata;
}

function resourceOfMetadataRequest(req: IncomingMessage): string {
  const url = requestUrl(req);
  return url.origin + (url.pathname.slice(PRM_PATH.length) || '/');
}

function requestUrl(req: IncomingMessage): URL {
  const encrypted = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  return new URL(requestPath(req), `${encrypted ? 'https' : 'http'}://${req.headers.host}`);
}
