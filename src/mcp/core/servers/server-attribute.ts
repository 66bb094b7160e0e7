/**
 * The telemetry attribute naming which of the app's servers a span or data point is about
 * (its `name`): every layer that records metrics labels them with it, so the series of several
 * servers in one app stay apart (docs/telemetry.md).
 */
export const SERVER_NAME_ATTRIBUTE = 'mcp.server.name';

/** The attributes every data point of the server `name` carries. */
export function serverAttributes(name: string): Readonly<Record<string, string>> {
  return { [SERVER_NAME_ATTRIBUTE]: name };
}
