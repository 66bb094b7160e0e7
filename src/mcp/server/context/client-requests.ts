import {
  ElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema,
} from '@modelcontextprotocol/core';
import { randomUUID } from 'node:crypto';
import type { ElicitResult } from '../../protocol/mcp-types.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { McpToolError } from '../tools/mcp-tool.error.js';
import { McpMissingClientCapabilityError } from '../../era/era.errors.js';

/** Whether the caller's client declared elicitation in `mode` (`{}` means form, spec 2025-11-25). */
export function canElicit(request: McpRequest, mode: 'form' | 'url'): boolean {
  const declared = request.clientCapabilities?.elicitation as Record<string, unknown> | undefined;
  if (!declared) return false;
  if (mode === 'form' && Object.keys(declared).length === 0) return true;
  return declared[mode] !== undefined;
}

/**
 * Throws a clear tool error unless the caller's client declared `capability`
 * (spec: never use a capability the client did not declare), so a handler
 * never sends a request the client cannot answer.
 */
export function requireCapability(
  request: McpRequest,
  capability: 'elicitation' | 'sampling' | 'roots',
  mode?: 'form' | 'url',
): void {
  const ok = mode
    ? canElicit(request, mode)
    : request.clientCapabilities?.[capability] !== undefined;
  if (!ok && request.era === 'modern') {
    // Modern era: the request itself must declare it, and the spec's answer is -32021.
    throw new McpMissingClientCapabilityError({ [capability]: mode === 'url' ? { url: {} } : {} });
  }
  if (!ok) {
    const what = mode === 'url' ? 'URL-mode elicitation' : `the ${capability} capability`;
    throw new McpToolError(`The client did not declare ${what}`);
  }
}

/** `elicitation/create` in form mode, its schema checked against the spec's primitive subset. */
export async function elicitForm(
  request: McpRequest,
  message: string,
  requestedSchema: Record<string, unknown>,
  key?: string,
): Promise<ElicitResult> {
  requireCapability(request, 'elicitation', 'form');
  const params = { message, requestedSchema };
  if (!ElicitRequestFormParamsSchema.safeParse(params).success) {
    throw new TypeError(`elicit(): requestedSchema is outside the spec's primitive subset`);
  }
  return (await request.requestClient('elicitation/create', params, key)) as ElicitResult;
}

/** `elicitation/create` in URL mode. */
export async function elicitUrl(
  request: McpRequest,
  message: string,
  url: string,
  key?: string,
): Promise<ElicitResult> {
  requireCapability(request, 'elicitation', 'url');
  const params = { mode: 'url' as const, message, url, elicitationId: randomUUID() };
  if (!ElicitRequestURLParamsSchema.safeParse(params).success) {
    throw new TypeError('elicitUrl(): url must be a valid URL');
  }
  return (await request.requestClient('elicitation/create', params, key)) as ElicitResult;
}
