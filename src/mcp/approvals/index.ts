/**
 * Approvals: a human deciding a call (docs/approvals.md, docs/operator-approvals.md).
 *
 * The words, used the same way in every file, class and page:
 *
 * - An **ask** is an authorizer's `ask(prompt)` for one call. The call runs only if the ask is
 *   approved; a deny always wins, and silence (a timeout, a closed connection) is a denial.
 * - An ask is **pending** from the moment it is made until it is **decided**: approved or
 *   denied.
 * - Its **approver** decides it, and is one of two:
 *   - the **caller**, asked by elicitation in the handshake era (`caller/mcp-approvals.service.ts`)
 *     or by an *approval round*, the modern era's input-required result
 *     (`caller/approval-round.ts`);
 *   - an **operator**, a second person, when the authorizer says `approver: 'operator'`
 *     (four-eyes). Operator asks are kept in the **approval store** (`stores/`) and decided at
 *     the **desk** (`McpOperatorDesk`, `operator/`), which the **console** (`console/`) and the
 *     **webhook** links (`webhook/`) put in front of people.
 * - The **ask router** (`ask.router.ts`) is the engine's approval gate: it hands each ask to
 *   its approver.
 * - A call whose ask is pending is **parked** by the engine: it answers later, once decided. A
 *   handshake-era call waiting for an operator answers **approval pending** after
 *   `approvals.answerWithinMs`, and its retry finds the same ask.
 * - The **approval wait** is the telemetry span that covers a pending caller ask.
 *
 * This file is the folder's public surface, re-exported by the package's entry point.
 */
export {
  MCP_APPROVAL_STORE,
  type McpApprovalStore,
  type McpOperatorAskPage,
} from './stores/approval-store.interface.js';
export type {
  McpApprovalsConsoleOptions,
  McpApprovalsOptions,
  McpApprovalsWebhookOptions,
} from './operator/approvals-options.interface.js';
export {
  APPROVAL_PENDING_META,
  type McpApprovalPending,
  type McpApprovalPendingDenial,
} from './operator/approval-pending.result.js';
export { argumentPreview, type McpArgumentPreviewBounds } from './operator/argument-preview.js';
export type {
  McpOperatorAsk,
  McpOperatorAskCaller,
  McpOperatorAskEvent,
  McpOperatorAskRecord,
  McpOperatorDecision,
} from './operator/operator-ask.interface.js';
export {
  MCP_OPERATOR_DESK,
  type McpOperatorDesk,
  type McpOperatorDeskProblem,
} from './operator/operator-desk.interface.js';
export {
  verifyWebhookSignature,
  type VerifyWebhookSignatureInput,
} from './webhook/webhook-signature.js';
export type { McpWebhookNotice } from './webhook/webhook-notice.js';
