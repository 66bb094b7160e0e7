/** What the decoder found in the input. */
export type LineEvent = { kind: 'line'; text: string } | { kind: 'oversized' };

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into newline-delimited lines without ever holding more
 * than `maxLineBytes` of one line: a longer line is dropped as it streams in
 * and reported once, when its newline arrives, as `oversized`.
 */
export class LineDecoder {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(private readonly maxLineBytes: number) {}

  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      // The common case, a whole line inside this chunk, is decoded in place (no copies).
      const event =
        newline !== -1 && this.size === 0 && !this.discarding && end - start <= this.maxLineBytes
          ? toLine(chunk.toString('utf8', start, end))
          : this.appendAndFinish(chunk.subarray(start, end), newline !== -1);
      if (newline === -1) break;
      if (event) events.push(event);
      start = newline + 1;
    }
    return events;
  }

  private appendAndFinish(bytes: Buffer, complete: boolean): LineEvent | undefined {
    this.append(bytes);
    return complete ? this.finishLine() : undefined;
  }

  /** The last line, when the stream ends without a final newline. */
  end(): LineEvent[] {
    const event = this.finishLine();
    return event ? [event] : [];
  }

  private append(bytes: Buffer): void {
    if (this.discarding || bytes.length === 0) return;
    if (this.size + bytes.length > this.maxLineBytes) {
      this.discarding = true;
      this.parts = [];
      this.size = 0;
      return;
    }
    // Copy: the chunk's buffer may be reused by the stream.
    this.parts.push(Buffer.from(bytes));
    this.size += bytes.length;
  }

  private finishLine(): LineEvent | undefined {
    if (this.discarding) {
      this.discarding = false;
      return { kind: 'oversized' };
    }
    const text = Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts = [];
    this.size = 0;
    return toLine(text);
  }
}

/* A line without its trailing CR; blank lines are skipped. */
function toLine(raw: string): LineEvent | undefined {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  return text.trim() === '' ? undefined : { kind: 'line', text };
}
