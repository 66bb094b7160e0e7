/**
 * The cancellation state of one request. The `AbortSignal` is created only
 * when someone reads it: most requests finish without anyone listening, and
 * an AbortController per request is a measurable cost on the hot path.
 */
export class RequestCancellation {
  private controller?: AbortController;
  private reason?: unknown;
  private cancelled = false;

  get aborted(): boolean {
    return this.cancelled;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /**
   * Aborts the signal without marking the request cancelled: the work must
   * stop (e.g. it timed out) but the request still gets its response.
   */
  expire(reason: unknown): void {
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }

  abort(reason?: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}
