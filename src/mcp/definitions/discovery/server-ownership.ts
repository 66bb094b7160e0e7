import type { McpServerScope } from '../../core/servers/mcp-server-scope.service.js';
import { McpDefinitionError } from '../registry.errors.js';
import type { ProviderMethod } from './provider-method.interface.js';

/**
 * Whether this server serves a decorated definition (docs/several-servers.md):
 * - `server: 'admin' | [...]` on the decorator names its servers; a name the
 *   app does not have fails boot, naming it;
 * - else, with one server, that server;
 * - else, the one server the declaring provider's module imports itself.
 *   None, or several, fails boot: a partner-facing server must never serve
 *   an admin tool because a module happened to see both.
 */
export function servedHere(
  scope: McpServerScope,
  found: ProviderMethod,
  kind: string,
  source: string,
  declared: string | string[] | undefined,
): boolean {
  if (declared !== undefined) {
    const names = [declared].flat();
    const known = scope.names();
    const unknown = names.find((name) => !known.includes(name));
    if (unknown !== undefined) {
      throw new McpDefinitionError(
        kind,
        source,
        `server '${unknown}' is not a server of this app (it has ${quoted(known)})`,
      );
    }
    return names.includes(scope.name);
  }
  if (!scope.several) return true;
  const module = found.wrapper.host;
  const owners = module ? scope.serversImportedBy(module) : [];
  if (owners.length !== 1) {
    const where = owners.length
      ? `its module imports servers ${quoted(owners)}`
      : 'its module imports none of them';
    throw new McpDefinitionError(
      kind,
      source,
      `this app has servers ${quoted(scope.names())} and ${where}: name the ones that serve it ` +
        `with server: '…' (or server: […]) in its decorator`,
    );
  }
  return owners[0] === scope.name;
}

function quoted(names: string[]): string {
  return names.map((name) => `'${name}'`).join(', ');
}
