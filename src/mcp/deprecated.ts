import { McpWardenError } from './core/errors/mcp-warden.error.js';
import { McpWarden } from './engine/mcp-warden.service.js';

/*
 * The names of the first release, kept for one more: they collide with the
 * official SDK's `McpServer` and `McpError`, which users import beside ours.
 * Each alias is the same class, so `app.get(McpServer)` and `instanceof` keep working.
 */

/**
 * @deprecated Use `McpWarden`; this alias goes in the next major release.
 * @publicApi
 */
export const McpServer = McpWarden;
/**
 * @deprecated Use `McpWarden`; this alias goes in the next major release.
 * @publicApi
 */
export type McpServer = McpWarden;

/**
 * @deprecated Use `McpWardenError`; this alias goes in the next major release.
 * @publicApi
 */
export const McpError = McpWardenError;
/**
 * @deprecated Use `McpWardenError`; this alias goes in the next major release.
 * @publicApi
 */
export type McpError = McpWardenError;
