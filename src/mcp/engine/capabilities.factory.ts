import type { ServerCapabilities } from '../core/protocol/mcp-types.js';
import type { McpRegistry } from '../definitions/mcp-registry.service.js';

/**
 * The capabilities announced at `initialize`, from what is registered then.
 * Logging is always on (tools may log); completions are announced when
 * anything declares arguments or variables a client may complete.
 */
export function buildCapabilities(registry: McpRegistry): ServerCapabilities {
  const capabilities: ServerCapabilities = { logging: {} };
  const tools = registry.tools();
  const prompts = registry.prompts();
  const templates = registry.templates();
  if (tools.length > 0) capabilities.tools = { listChanged: true };
  if (registry.resources().length > 0 || templates.length > 0) {
    capabilities.resources = { subscribe: true, listChanged: true };
  }
  if (prompts.length > 0) capabilities.prompts = { listChanged: true };
  const completable =
    templates.length > 0 ||
    prompts.some((entry) => entry.arguments.length > 0) ||
    tools.some((entry) => Object.keys(entry.completions).length > 0);
  if (completable) capabilities.completions = {};
  return capabilities;
}
