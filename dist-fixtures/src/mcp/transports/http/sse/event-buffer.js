/**
 * The last `capacity` events of a session. Event ids are `<stream>.<seq>`,
 * with `seq` increasing across the whole session, so ids are unique per
 * session and name the stream they belong to.
 */
export class EventBuffer {
    constructor(capacity) {
        this.capacity = capacity;
        this.events = [];
        this.seq = 0;
    }
    get size() {
        return this.events.length;
    }
    /** Records `data` on `streamId` and returns its event id. */
    add(streamId, data) {
        const event = { streamId, seq: ++this.seq, data };
        this.events.push(event);
        if (this.events.length > this.capacity)
            this.events.shift();
        return eventId(event);
    }
    /** A fresh id on `streamId` that carries no data (for priming events). */
    mark(streamId) {
        return `${streamId}.${++this.seq}`;
    }
    /** Events of the stream `lastEventId` names that came after it (never another stream's). */
    after(lastEventId) {
        const dot = lastEventId.lastIndexOf('.');
        const seq = Number(lastEventId.slice(dot + 1));
        if (dot <= 0 || !Number.isInteger(seq))
            return undefined;
        const streamId = lastEventId.slice(0, dot);
        const events = this.events
            .filter((event) => event.streamId === streamId && event.seq > seq)
            .map((event) => ({ id: eventId(event), data: event.data }));
        return { streamId, events };
    }
}
function eventId(event) {
    return `${event.streamId}.${event.seq}`;
}
//# sourceMappingURL=event-buffer.js.map