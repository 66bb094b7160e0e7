import type { McpToolEntry } from '../definitions/interfaces/registry-entry.interface.js';
import type { AuthorizerDecision } from './authorizer.interface.js';

/**
 * What the tool seam concluded for one `tools/call`, handed to the handler
 * that owns the call: the decision, and the tool it was taken for (undefined
 * for an unknown name, which the handler reports only after a non-deny).
 */
export interface ToolSeamVerdict {
  readonly decision: AuthorizerDecision;
  readonly entry?: McpToolEntry;
}
