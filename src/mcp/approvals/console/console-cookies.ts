import type { IncomingMessage } from 'node:http';

/** The value of cookie `name` on `req`, if sent once (two of the same name are taken as none). */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  let found: string | undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    if (found !== undefined) return undefined;
    found = part.slice(eq + 1).trim();
  }
  return found;
}

/**
 * A `Set-Cookie` value the `__Host-` prefix accepts: Secure, Path=/, no
 * Domain; HttpOnly (no script reads it) and SameSite=Lax (no cross-site POST
 * carries it, while the issuer's redirect back, a top-level GET, does).
 */
export function hostCookie(name: string, value: string, maxAgeMs: number): string {
  const maxAge = Math.max(0, Math.floor(maxAgeMs / 1000));
  return `${name}=${value}; Path=/; Max-Age=${maxAge}; Secure; HttpOnly; SameSite=Lax`;
}

/** Clears cookie `name`. */
export function clearedCookie(name: string): string {
  return hostCookie(name, '', 0);
}
