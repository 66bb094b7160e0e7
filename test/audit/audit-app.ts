import { aborted } from 'node:util';
import { Injectable } from '@nestjs/common';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  McpTool,
  McpToolError,
  type Authorizer,
  type McpAuditCheckpoint,
  type McpCheckpointPublisher,
  type McpRequestContext,
} from '../../src/index.js';
import { readAuditSource } from '../../src/cli/audit/record-source.js';
import { at } from '../support/deadline.js';
import { envelope, MODERN } from '../modern/modern-app.js';
import { TASKS } from '../tasks/tasks-app.js';
import { deferred } from '../support/deferred.js';
import {
  verifyChains,
  type McpAuditChainReport,
} from '../../src/mcp/audit/verify/chain-verifier.js';

const INPUT = { type: 'object', properties: { text: { type: 'string' } } };

/** One tool per way a call can end, and the names of those that ran. */
@Injectable()
export class AuditedTools {
  readonly ran: string[] = [];

  @McpTool({ description: 'Answers', input: INPUT })
  fine({ text }: { text?: string }) {
    this.ran.push('fine');
    return `fine ${text ?? ''}`;
  }

  @McpTool({ description: 'Answers with an isError result', input: INPUT })
  refuses() {
    this.ran.push('refuses');
    throw new McpToolError('no such thing');
  }

  @McpTool({ description: 'Throws', input: INPUT })
  explodes(): string {
    this.ran.push('explodes');
    throw new Error('boom');
  }

  @McpTool({ description: 'Never denied by the fixture, always asked about', input: INPUT })
  guarded() {
    this.ran.push('guarded');
    return 'guarded ran';
  }

  @McpTool({ description: 'Waits until cancelled or timed out', input: INPUT })
  async waits(_args: object, context: McpRequestContext) {
    this.ran.push('waits');
    await aborted(context.signal, context.signal);
    throw context.signal.reason;
  }

  /** Opened by the test: a task's tool ends when it is. */
  gate = deferred();

  @McpTool({
    description: 'A task that ends when the test opens its gate',
    input: INPUT,
    task: 'optional',
  })
  async long_job(_args: object, context: McpRequestContext) {
    this.ran.push('long_job');
    await new Promise<void>((resolve, reject) => {
      void this.gate.promise.then(resolve);
      void aborted(context.signal, context.signal).then(() => reject(context.signal.reason));
    });
    return 'long job done';
  }

  @McpTool({ description: 'Denied by the fixture', input: INPUT })
  forbidden() {
    this.ran.push('forbidden');
    return 'never';
  }
}

/** A tool that changes the arguments it was called with, as a handler may. */
@Injectable()
export class ArgumentsChanger {
  @McpTool({
    description: 'Changes its arguments',
    input: { type: 'object', properties: { text: { type: 'string' }, nested: { type: 'object' } } },
  })
  changes_its_arguments(args: { text?: string; nested?: { items: string[] } }) {
    args.text = 'changed by the tool';
    args.nested?.items.push('added by the tool');
    return 'changed';
  }
}

/** The caller's approval, given once `time` (ms since the epoch) has passed: past a deadline. */
export function approvalAt(
  time: number,
): Promise<{ action: 'accept'; content: { approve: boolean } }> {
  return at(time).then(() => ({ action: 'accept', content: { approve: true } }));
}

/** Denies `forbidden`, asks about `guarded`, allows the rest; reads allowed. */
export const auditAuthorizer: Authorizer = (name) =>
  name === 'forbidden'
    ? { kind: 'deny', reason: 'not here' }
    : name === 'guarded'
      ? { kind: 'ask', prompt: 'Run guarded?' }
      : { kind: 'allow' };

/* The folders logDir() made in this test file, removed when it ends. */
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder for one test's log, removed when the test file ends. */
export function logDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-warden-audit-'));
  made.push(dir);
  return dir;
}

export function signingKeys(): { privateKey: KeyObject; publicKey: KeyObject } {
  return generateKeyPairSync('ed25519');
}

/** A second place that keeps what it is given (as a webhook receiver would). */
export function keptCheckpoints(): McpCheckpointPublisher & { kept: McpAuditCheckpoint[] } {
  const kept: McpAuditCheckpoint[] = [];
  return {
    kept,
    publish: async (checkpoint) => {
      kept.push(checkpoint);
    },
  };
}

/** Reads a source and verifies every chain in it. */
export async function verifySource(
  source: string,
  publicKey?: KeyObject,
  published: McpAuditCheckpoint[] = [],
): Promise<McpAuditChainReport[]> {
  return verifyChains(await readAuditSource(source), publicKey, published);
}

/** The built package's module at `path` under dist, as a child process's script imports it. */
export function built(path: string): string {
  return pathToFileURL(resolve('dist', path)).href;
}

/** Every record of a source, parsed. */
export async function recordsOf(source: string): Promise<Record<string, any>[]> {
  return (await readAuditSource(source)).map((stored) => JSON.parse(stored.line));
}

/** A 2026-07-28 request declaring the tasks extension, to the MCP endpoint `url`; its result. */
export async function modernRequest(
  url: string,
  method: string,
  params: Record<string, unknown>,
): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      // `taskId` names a tasks/* request in Mcp-Name.
      'mcp-name': String(params.name ?? params.taskId),
      'mcp-method': method,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: envelope({ extensions: { [TASKS]: {} } }) },
    }),
  });
  return ((await response.json()) as { result: any }).result;
}
