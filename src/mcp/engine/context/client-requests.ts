import {
  ElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema,
} from '@modelcontextprotocol/core';
import { randomUUID } from 'node:crypto';
import { isHttpUrl } from '../../core/common/http-url.js';
import { checkedElicitAnswer, compileRequestedSchema } from '../elicitation/elicit-answer.check.js';
import type {
  McpElicitationUrl,
  McpUrlElicitResult,
} from '../../definitions/interfaces/url-elicitation.interface.js';
import {
  forgetUrlElicitation,
  recordUrlElicitation,
} from '../elicitation/url-elicitation.ledger.js';
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitResult,
} from '../../core/protocol/mcp-types.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { McpToolError } from '../../core/errors/mcp-tool.error.js';
import { McpMissingClientCapabilityError } from '../../core/protocol/era.errors.js';

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

/**
 * `elicitation/create` in form mode, its schema checked against the spec's
 * primitive subset and compiled before it is sent; an accepted answer that
 * does not match it is a tool error, never content.
 */
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
  const check = compileRequestedSchema(requestedSchema);
  return checkedElicitAnswer(await request.requestClient('elicitation/create', params, key), check);
}

/**
 * `elicitation/create` in URL mode, under a fresh unguessable id that `url`
 * may embed. The elicitation stays open for `McpUrlElicitations.complete()`
 * once the user accepted; a decline, a cancel or a failure closes it.
 */
export async function elicitUrl(
  request: McpRequest,
  message: string,
  url: McpElicitationUrl,
  key?: string,
): Promise<McpUrlElicitResult> {
  requireCapability(request, 'elicitation', 'url');
  const elicitationId = randomUUID();
  const target = typeof url === 'function' ? url(elicitationId) : url;
  const params = { mode: 'url' as const, message, url: target, elicitationId };
  if (!ElicitRequestURLParamsSchema.safeParse(params).success || !isHttpUrl(target)) {
    throw new TypeError('elicitUrl(): url must be an https: or http: URL');
  }
  // Recorded before it is sent: the user may reach the page before the answer reaches us.
  recordUrlElicitation(request, params);
  let answer: ElicitResult;
  try {
    answer = checkedElicitAnswer(await request.requestClient('elicitation/create', params, key));
  } catch (error) {
    forgetUrlElicitation(request.connection, elicitationId);
    throw error;
  }
  if (answer.action !== 'accept') forgetUrlElicitation(request.connection, elicitationId);
  return { ...answer, elicitationId };
}

/**
 * `sampling/createMessage`. Tool use (`tools`, `toolChoice`) needs the
 * client's `sampling.tools` (spec 2025-11-25: MUST NOT send tool-enabled
 * sampling otherwise), and an `includeContext` other than `none` its
 * `sampling.context` (SHOULD): without them, a clear tool error and nothing sent.
 */
export async function sampleClient(
  request: McpRequest,
  params: CreateMessageParams,
  key?: string,
): Promise<CreateMessageResult> {
  requireCapability(request, 'sampling');
  const sampling = request.clientCapabilities?.sampling;
  if ((params.tools !== undefined || params.toolChoice !== undefined) && !sampling?.tools) {
    throw new McpToolError('The client did not declare tool use in sampling (sampling.tools)');
  }
  if ((params.includeContext ?? 'none') !== 'none' && !sampling?.context) {
    throw new McpToolError(
      `The client did not declare sampling.context, which includeContext "${params.includeContext}" needs`,
    );
  }
  return (await request.requestClient(
    'sampling/createMessage',
    params,
    key,
  )) as CreateMessageResult;
}
