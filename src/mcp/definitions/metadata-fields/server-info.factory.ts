import type { ImplementationSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { McpDefinitionError } from '../registry.errors.js';
import type { McpIcon } from './display.interface.js';
import { isHttpUrl } from '../../core/common/http-url.js';
import { iconsProblem } from './icons.validator.js';

/**
 * What `initialize` announces as `serverInfo` (spec `Implementation`).
 * @publicApi
 */
export type McpServerInfo = z.infer<typeof ImplementationSchema>;

/** The module options `serverInfo` is built from. */
export interface ServerInfoSource {
  name: string;
  version: string;
  title?: string;
  description?: string;
  icons?: McpIcon[];
  websiteUrl?: string;
}

/**
 * Builds `serverInfo` once, when the options are resolved; a bad icon or
 * website URL fails the boot (like a bad definition) instead of reaching
 * every client.
 */
export function buildServerInfo(options: ServerInfoSource): McpServerInfo {
  const fail = (problem: string) =>
    new McpDefinitionError('server info', 'McpModule options', problem);
  const info: McpServerInfo = { name: options.name, version: options.version };
  for (const key of ['title', 'description'] as const) {
    const value = options[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw fail(`${key} must be a string`);
    info[key] = value;
  }
  if (options.icons !== undefined) {
    const problem = iconsProblem(options.icons);
    if (problem) throw fail(problem);
    info.icons = options.icons.map((icon) => Object.freeze({ ...icon }));
  }
  if (options.websiteUrl !== undefined) {
    if (!isHttpUrl(options.websiteUrl)) throw fail('websiteUrl must be an https: or http: URL');
    info.websiteUrl = options.websiteUrl;
  }
  // One object serves every `initialize`: frozen, so no answer can change the next one.
  return Object.freeze(info);
}
