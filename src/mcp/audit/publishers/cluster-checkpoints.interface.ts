import type { McpCheckpointPublisher } from '../audit-options.interface.js';

/**
 * The port by which cluster mode offers its Redis as the second place for checkpoints: the
 * journal uses it when `audit.signing` names no `publish` of its own. Declared here, provided
 * by the cluster layer (docs/architecture.md); null without `cluster`.
 */
export const MCP_CLUSTER_CHECKPOINTS = Symbol('MCP_CLUSTER_CHECKPOINTS');

export type McpClusterCheckpoints = McpCheckpointPublisher | null;
