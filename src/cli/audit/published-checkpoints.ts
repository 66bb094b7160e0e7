import { readFile } from 'node:fs/promises';
import type { McpAuditCheckpoint } from '../../mcp/audit/audit-options.interface.js';
import {
  CHECKPOINT_FIELD,
  connectCheckpointRedis,
  DEFAULT_CHECKPOINT_STREAM,
} from '../../mcp/audit/publishers/redis-checkpoints.js';

/** Entries read per XRANGE. */
const PAGE = 1_000;

/**
 * The checkpoints a second place kept: what a webhook receiver wrote (JSON Lines, one
 * `McpAuditCheckpoint` per line), or a Redis Stream (`redis://host:port[/db][?key=<stream>]`,
 * default key `mcp-warden:audit:checkpoints`, which cluster mode also writes under its default
 * prefix).
 */
export async function readPublished(source: string): Promise<McpAuditCheckpoint[]> {
  if (/^rediss?:\/\//.test(source)) return readStream(source);
  return (await readFile(source, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as McpAuditCheckpoint);
}

async function readStream(source: string): Promise<McpAuditCheckpoint[]> {
  const url = new URL(source);
  const key = url.searchParams.get('key') ?? DEFAULT_CHECKPOINT_STREAM;
  url.search = '';
  const redis = await connectCheckpointRedis(url.toString()).catch((error: Error) => {
    throw new Error(`cannot read checkpoints from ${url.host}: ${error.message}`);
  });
  try {
    const found: McpAuditCheckpoint[] = [];
    let from = '-';
    for (;;) {
      const entries = await redis.xrange(key, from, '+', 'COUNT', PAGE);
      for (const [, fields] of entries) {
        const at = fields.indexOf(CHECKPOINT_FIELD);
        if (at >= 0 && at % 2 === 0) {
          found.push(JSON.parse(fields[at + 1]!) as McpAuditCheckpoint);
        }
      }
      if (entries.length < PAGE) return found;
      // Exclusive start: the entry after the last one read.
      from = `(${entries[entries.length - 1]![0]}`;
    }
  } finally {
    await redis.quit().catch(() => undefined);
  }
}
