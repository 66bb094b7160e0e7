/**
 * Where the modern era's waiting caller is pointed (docs/operator-approvals.md): the
 * console's page for the ask, under the app's global prefix, when the
 * console has a public origin; otherwise a URN, which nothing can open: the
 * caller can wait, never approve.
 */
export function operatorAskUrl(
  id: string,
  console: { readonly origin?: string; readonly path: string; readonly globalPrefix?: string },
): string {
  const fallback = `urn:mcp-warden:approval:${id}`;
  if (!console.origin) return fallback;
  const prefix = (console.globalPrefix ?? '').replace(/^\/+|\/+$/g, '');
  const page = `${prefix ? `/${prefix}` : ''}${console.path}/asks/${encodeURIComponent(id)}`;
  try {
    return new URL(page, console.origin).href;
  } catch {
    return fallback;
  }
}
