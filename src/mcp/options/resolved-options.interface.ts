import type { McpRevisionSettings } from '../revisions/2026-07-28/tasks/tasks-options.interface.js';

export type { ResolvedApprovalsOptions } from '../approvals/approvals-settings.interface.js';
export type { ResolvedHttpOptions } from '../authentication/authentication-settings.interface.js';

/**
 * Every module option with its default applied, resolved once when the module is created.
 * Every part of the framework injects this (`MCP_OPTIONS`), never the raw options, so a
 * default lives in exactly one place. Each layer reads it through its own slice
 * (`McpCoreSettings` up to `McpRevisionSettings`); this is their sum.
 */
export type McpResolvedOptions = McpRevisionSettings;
