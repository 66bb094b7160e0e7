import type { DetailedError } from '@cedar-policy/cedar-wasm/nodejs';

/** Where a policy's text sits: its file (for messages) and its byte offset in that file. */
export interface PolicyOrigin {
  readonly file: string;
  readonly text: string;
  readonly offset: number;
}

/**
 * Cedar's message for an error in a policy, prefixed with `file:line:col` of its first
 * source location (Cedar reports byte offsets into the text it was given).
 */
export function describeError(origin: PolicyOrigin, error: DetailedError, prefix = ''): string {
  const location = error.sourceLocations?.[0];
  const where =
    location === undefined
      ? origin.file
      : `${origin.file}:${lineAndColumn(origin.text, origin.offset + location.start)}`;
  const help = error.help ? ` (${error.help})` : '';
  return `${where}: ${prefix}${error.message}${help}`;
}

function lineAndColumn(text: string, byteOffset: number): string {
  const before = Buffer.from(text, 'utf8').subarray(0, byteOffset).toString('utf8');
  const lines = before.split('\n');
  return `${lines.length}:${lines[lines.length - 1].length + 1}`;
}
