/* The reasons of the denies the audit itself decides (docs/audit.md). */

/**
 * The reason of a deny recorded for a decision whose record could not be kept under
 * `audit.failClosed`: no action without a record.
 */
export const AUDIT_UNAVAILABLE = 'audit_unavailable';

/**
 * The reason of a deny for a call whose arguments have no RFC 8785 form (a lone surrogate, a
 * number past a double's range), so no digest could say what was called: no action without a
 * whole record (docs/audit.md).
 */
export const UNRECORDABLE_ARGUMENTS = 'unrecordable_arguments';
