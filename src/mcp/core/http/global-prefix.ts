/**
 * `path` as an adapter route sees it: under the app's global prefix, if any.
 * Routes mounted on the adapter itself (not through a controller) need it,
 * since Nest adds the prefix only to controllers' routes.
 */
export function underGlobalPrefix(globalPrefix: string | undefined, path: string): string {
  const prefix = (globalPrefix ?? '').replace(/^\/+|\/+$/g, '');
  return (prefix ? '/' + prefix : '') + path;
}
