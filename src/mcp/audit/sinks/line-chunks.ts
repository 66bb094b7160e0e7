import type { McpAuditEntry } from '../audit-sink.interface.js';

/**
 * The most text one chunk gathers (UTF-16 code units), unless a single line is longer. V8 gives
 * a string or buffer past its largest young object (128 KiB) pages of its own, each touched for
 * the first time as it is filled: a batch of 700 lines handed on as one string cost several times
 * what it costs in chunks (bench/sink-handoff.mjs; docs/audit.md, "Performance").
 */
export const CHUNK_CHARS = 32 * 1024;

/**
 * The batch's lines, each followed by a newline, in order, in strings of at most CHUNK_CHARS
 * (a longer line is a chunk of its own): what a sink hands on, copies or encodes.
 */
export function lineChunks(entries: readonly McpAuditEntry[]): string[] {
  const chunks: string[] = [];
  let text = '';
  for (const { line } of entries) {
    // The line and its newline would take the chunk past the bound: it starts the next one.
    if (text !== '' && text.length + line.length + 1 > CHUNK_CHARS) {
      chunks.push(text);
      text = '';
    }
    text += line + '\n';
  }
  if (text !== '') chunks.push(text);
  return chunks;
}
