/**
 * What a method handler returns for a call that must wait (for the user's
 * approval) instead of answering now. The dispatcher tells the transport the
 * call is parked, and once `result` settles it answers the call exactly as it
 * would have answered at once, on the connection's outbound channel.
 */
export class McpParkedCall {
  constructor(readonly result: Promise<unknown>) {}
}
