/**
 * The Cedar vocabulary of DESIGN §6.2, namespace `Mcp` (docs/policy.md shows it whole). Tool
 * actions follow the conventions of the Cedar team's MCP schema generator: one action per tool,
 * its arguments typed under `context.input`.
 */
export const NAMESPACE = 'Mcp';

export const ENTITY = {
  user: `${NAMESPACE}::User`,
  anonymous: `${NAMESPACE}::Anonymous`,
  group: `${NAMESPACE}::Group`,
  role: `${NAMESPACE}::Role`,
  server: `${NAMESPACE}::Server`,
  resource: `${NAMESPACE}::Resource`,
  prompt: `${NAMESPACE}::Prompt`,
  action: `${NAMESPACE}::Action`,
} as const;

/** The id of the one anonymous principal. */
export const ANONYMOUS_ID = 'anonymous';

/** The action group every tool action belongs to. */
export const TOOLS_CALL = 'tools/call';
/** The action group every read action belongs to. */
export const MCP_READ = 'mcp/read';

/** Read methods whose Cedar resource is what they read (`Mcp::Resource` or `Mcp::Prompt`). */
export const RESOURCE_READS = new Set([
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
]);
export const PROMPT_READS = new Set(['prompts/get']);

/** Every read-seam method, one action each. */
export const READ_ACTIONS = [
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'subscriptions/listen',
  // The tasks extension (docs/tasks.md): a task's owner is checked by the server as well.
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
] as const;

/** The Cedar resource type of a read method. */
export function readResourceType(method: string): string {
  if (RESOURCE_READS.has(method)) return ENTITY.resource;
  if (PROMPT_READS.has(method)) return ENTITY.prompt;
  return ENTITY.server;
}
