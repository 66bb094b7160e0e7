/**
 * Whether `value` is an absolute `https:` or `http:` URL: what a website, an
 * icon or a URL elicitation may point at (never `javascript:`, `file:`, …).
 */
export function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
