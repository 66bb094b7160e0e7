import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** The folder name under the per-user data location. */
const APP_FOLDER = 'mcp-warden';

/**
 * The per-user data directory of the service, independent of the current
 * directory (a client that launches the stdio server from elsewhere must find
 * the same notes): `$XDG_DATA_HOME/mcp-warden` or `~/.local/share/mcp-warden`
 * on Linux and other Unixes, `~/Library/Application Support/mcp-warden` on
 * macOS, `%APPDATA%\mcp-warden` on Windows.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home: string = homedir(),
): string {
  if (platform === 'win32') {
    return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), APP_FOLDER);
  }
  if (platform === 'darwin') {
    return posix.join(home, 'Library', 'Application Support', APP_FOLDER);
  }
  // The XDG spec says a relative value is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && posix.isAbsolute(xdg) ? xdg : posix.join(home, '.local', 'share');
  return posix.join(base, APP_FOLDER);
}
