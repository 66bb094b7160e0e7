import type { KeyObject } from 'node:crypto';
import type { McpAuditRecording } from '../authorization/audit/audit-journal.interface.js';
import type { McpAuditSink } from './audit-sink.interface.js';
import type { McpAuthorizationSettings } from '../authorization/authorization-settings.interface.js';

/** A signed checkpoint, as it is published to a second place. @publicApi */
export interface McpAuditCheckpoint {
  readonly instance: string;
  /** The chain position the checkpoint itself holds. */
  readonly seq: number;
  /** The C2SP note: origin, size, head hash, signature. */
  readonly note: string;
}

/**
 * A second place for checkpoints (a webhook receiver, Redis in cluster mode), so that cutting
 * the end off a log, checkpoints included, is still detected (docs/audit.md). @publicApi
 */
export interface McpCheckpointPublisher {
  /** Keeps one checkpoint; a rejection is logged and the log goes on. */
  publish(checkpoint: McpAuditCheckpoint): Promise<void>;
  /** Called once at shutdown, after the last checkpoint (a connection to close). */
  close?(): Promise<void>;
}

/** The `audit` option (DESIGN §8, docs/audit.md). @publicApi */
export interface McpAuditOptions extends McpAuditRecording {
  /** Where records are kept: `McpAuditSinks.jsonl()`, `.sql()`, `.otelLogs()`. */
  sinks?: McpAuditSink[];
  /** A call whose decision record cannot be kept denies (`audit_unavailable`). Default false. */
  failClosed?: boolean;
  /** Signed checkpoints of the chain. */
  signing?: {
    /** Ed25519 private key: a KeyObject or PEM text. */
    privateKey: string | KeyObject;
    /** The key's name in each signature line. Default `mcp-warden-audit`. */
    keyId?: string;
    /** A checkpoint after this many records (default 1,000) … */
    everyRecords?: number;
    /** … or this long after the last one, when records came since (default 10,000 ms). */
    everyMs?: number;
    publish?: McpCheckpointPublisher;
  };
  /**
   * The name of this instance's chains (a pod's name, say). Each start writes a chain of its
   * own, `<instance>-<random suffix>`, so a restart never continues the last start's chain.
   * Default: host name and process id.
   */
  instance?: string;
  /** Records a sink may hold while it is slow or down; past it they are dropped and counted. Default 10,000. */
  maxPending?: number;
  /**
   * With `failClosed`: how long a call waits for its record before it denies, and how long a
   * sink's write may take before the sink is taken for failing (every call refused until a
   * write ends). Default 2,000 ms.
   */
  failClosedTimeoutMs?: number;
}

/** The resolved options as the audit layer and the layers above it read them. */
export interface McpAuditSettings extends McpAuthorizationSettings {
  readonly audit?: McpAuditOptions;
}
