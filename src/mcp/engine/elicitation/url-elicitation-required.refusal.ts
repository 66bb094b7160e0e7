import { ElicitRequestURLParamsSchema } from '@modelcontextprotocol/core';
import { isHttpUrl } from '../../core/common/http-url.js';
import { McpWardenError } from '../../core/errors/mcp-warden.error.js';
import { protocolErrorOf } from '../../core/errors/sdk-errors.js';
import { JsonRpcErrorCode } from '../../core/protocol/error-codes.constants.js';
import { canElicit } from '../context/client-requests.js';
import type { McpRequest } from '../dispatch/mcp-request.interface.js';
import { recordUrlElicitation } from './url-elicitation.ledger.js';

/** What a client that cannot take a -32042 is told instead. */
export const URL_ELICITATION_UNDECLARED =
  'This request needs the user to complete a URL-mode elicitation, which the client did not declare';
const URL_ELICITATION_MODERN =
  'This request needs a URL-mode elicitation: ask for it with ctx.elicitUrl() in this protocol era';
const MALFORMED =
  'This request needs a URL-mode elicitation, but the server listed none it could send';

/**
 * Decides whether a -32042 (`URLElicitationRequiredError`) a handler threw may
 * be answered as one on `request`. It may when the client declared URL-mode
 * elicitation (spec 2025-11-25: never a mode the client did not declare) and
 * the error lists valid URL elicitations; those are then recorded, so
 * `McpUrlElicitations.complete()` reaches this client. Otherwise the returned
 * text says why, for the caller to answer with instead. Any other error, and
 * an allowed -32042, give undefined.
 */
export function urlElicitationRefusal(
  error: McpWardenError,
  request: McpRequest,
): string | undefined {
  if (error.code !== JsonRpcErrorCode.UrlElicitationRequired) return undefined;
  // The 2026-07-28 era has no -32042: a URL elicitation there is an input-required result.
  if (request.era === 'modern') return URL_ELICITATION_MODERN;
  if (!canElicit(request, 'url')) return URL_ELICITATION_UNDECLARED;
  // An SDK error may be built by hand: check what ours checks at construction.
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed) || listed.length === 0) return MALFORMED;
  const elicitations = listed.map((item) => ElicitRequestURLParamsSchema.safeParse(item));
  const valid = (parsed: (typeof elicitations)[number]) =>
    parsed.success && parsed.data.elicitationId !== '' && isHttpUrl(parsed.data.url);
  if (!elicitations.every(valid)) {
    return MALFORMED;
  }
  for (const parsed of elicitations) recordUrlElicitation(request, parsed.data!);
  return undefined;
}

/**
 * For a resource or prompt handler's failure: the error to answer with. A
 * -32042 the client cannot take becomes a plain -32603 saying why (such a
 * request has no `isError` result to fall back on); anything else is as thrown.
 */
export function answerableError(error: unknown, request: McpRequest): unknown {
  const protocolError = protocolErrorOf(error);
  const refused = protocolError && urlElicitationRefusal(protocolError, request);
  return refused ? new McpWardenError(JsonRpcErrorCode.InternalError, refused) : error;
}
