/** A `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3, RFC 9728 §5.1); absent parameters are left out. */
export function bearerChallenge(params: Record<string, string | undefined>): string {
  const parts = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    // Quoted strings: a quote or backslash inside one is escaped.
    .map(([name, value]) => `${name}="${value.replace(/["\\]/g, '\\$&')}"`);
  return parts.length > 0 ? `Bearer ${parts.join(', ')}` : 'Bearer';
}
