const NEWLINE = 0x0a;
/**
 * Splits a byte stream into newline-delimited lines without ever holding more
 * than `maxLineBytes` of one line: a longer line is dropped as it streams in
 * and reported once, when its newline arrives, as `oversized`.
 */
export class LineDecoder {
    constructor(maxLineBytes) {
        this.maxLineBytes = maxLineBytes;
        this.parts = [];
        this.size = 0;
        this.discarding = false;
    }
    push(chunk) {
        const events = [];
        let start = 0;
        while (start < chunk.length) {
            const newline = chunk.indexOf(NEWLINE, start);
            const end = newline === -1 ? chunk.length : newline;
            this.append(chunk.subarray(start, end));
            if (newline === -1)
                break;
            const event = this.finishLine();
            if (event)
                events.push(event);
            start = newline + 1;
        }
        return events;
    }
    /** The last line, when the stream ends without a final newline. */
    end() {
        const event = this.finishLine();
        return event ? [event] : [];
    }
    append(bytes) {
        if (this.discarding || bytes.length === 0)
            return;
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
    finishLine() {
        if (this.discarding) {
            this.discarding = false;
            return { kind: 'oversized' };
        }
        const text = Buffer.concat(this.parts, this.size).toString('utf8').replace(/\r$/, '');
        this.parts = [];
        this.size = 0;
        return text.trim() === '' ? undefined : { kind: 'line', text };
    }
}
//# sourceMappingURL=line.decoder.js.map