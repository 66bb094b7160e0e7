import type { IncomingMessage } from 'node:http';
import { McpHeaderMismatchError } from '../../../core/protocol/era.errors.js';
import { isJsonObject } from '../../../core/protocol/jsonrpc.js';
import { decodeHeaderValue, headerFormOf } from './header-value.js';
import { argumentAt, mcpParamHeadersOf } from './mcp-param.headers.js';

/** The body field `Mcp-Name` mirrors, by method (SEP-2243, standard request headers). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // SEP-2663: a task's requests name it, so a load balancer can route them by header.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** A canonical decimal number, the only header form compared numerically. */
const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * The cross-checks of the modern envelope against the headers that let
 * intermediaries route without reading bodies, which must agree with it:
 * `MCP-Protocol-Version` and `Mcp-Method` on every request, `Mcp-Name` for
 * the methods that name something. A disagreement, a missing header or a
 * malformed Base64 sentinel is -32020 (HTTP 400).
 */
export function checkStandardHeaders(
  req: IncomingMessage,
  method: string,
  params: Record<string, unknown>,
  claimedVersion: string,
): void {
  const version = header(req, 'mcp-protocol-version');
  if (version === undefined) {
    throw new McpHeaderMismatchError(
      '(missing)',
      `the body envelope names protocol version ${claimedVersion} but the required MCP-Protocol-Version header is absent`,
    );
  }
  if (version !== claimedVersion) {
    throw new McpHeaderMismatchError(
      version,
      `the body envelope names protocol version ${claimedVersion} but the MCP-Protocol-Version header names ${version}`,
    );
  }
  const methodHeader = header(req, 'mcp-method');
  if (methodHeader !== method) {
    throw new McpHeaderMismatchError(
      methodHeader ?? '(missing)',
      methodHeader === undefined
        ? `the body names method ${method} but the required Mcp-Method header is absent`
        : `the body names method ${method} but the Mcp-Method header names ${methodHeader}`,
    );
  }
  const field = NAME_SOURCE[method];
  if (field === undefined) return;
  const named = typeof params[field] === 'string' ? (params[field] as string) : undefined;
  const nameHeader = header(req, 'mcp-name');
  if (nameHeader === undefined) {
    if (named === undefined) return;
    throw new McpHeaderMismatchError(
      '(missing)',
      `the body carries params.${field}="${named}" but the required Mcp-Name header is absent`,
    );
  }
  const decoded = decodeHeaderValue(nameHeader);
  if (decoded === undefined) {
    throw new McpHeaderMismatchError(
      nameHeader,
      'the Mcp-Name header carries an invalid Base64 sentinel value',
    );
  }
  if (named !== undefined && decoded !== named) {
    throw new McpHeaderMismatchError(
      nameHeader,
      `the body carries params.${field}="${named}" but the Mcp-Name header names "${decoded}"`,
    );
  }
}

/**
 * The `Mcp-Param-{Name}` headers of a `tools/call` whose tool marks arguments
 * with `x-mcp-header`: when the body carries the argument, the header must be
 * there and decode to the same value (integers compared as numbers); a null
 * or absent argument expects no header.
 */
export function checkParamHeaders(req: IncomingMessage, inputSchema: object, args: unknown): void {
  for (const declared of mcpParamHeadersOf(inputSchema)) {
    const value = argumentAt(isJsonObject(args) ? args : {}, declared.path);
    const form = value === null || value === undefined ? undefined : headerFormOf(value);
    if (form === undefined) continue;
    const name = `Mcp-Param-${declared.name}`;
    const raw = header(req, name.toLowerCase());
    const path = declared.path.join('.');
    if (raw === undefined) {
      throw new McpHeaderMismatchError(
        name,
        `the body carries arguments.${path}=${JSON.stringify(value)} but the ${name} header is absent`,
      );
    }
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) {
      throw new McpHeaderMismatchError(
        name,
        `the ${name} header carries an invalid Base64 sentinel value`,
      );
    }
    const same =
      typeof value === 'number' && DECIMAL.test(decoded)
        ? Number(decoded) === value
        : decoded === form;
    if (!same) {
      throw new McpHeaderMismatchError(
        name,
        `the ${name} header decodes to ${JSON.stringify(decoded)} but the body carries arguments.${path}=${JSON.stringify(value)}`,
      );
    }
  }
}
