import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/*
 * Responses finished during one turn of the event loop are written together, at its end (the
 * check phase). Each is still one write of its own; only the moment moves. Written the moment it
 * was finished, each response woke the client's side on its own: under load, with the client on
 * the other core, those wake-ups cost the server more CPU per call than the framework's own work
 * did, and calls that arrive together are answered in one turn anyway. A response waits at most
 * for the rest of the turn it finished in (docs/performance.md, "Writing responses").
 */

/*
 * The answers waiting for the end of this turn, with their bodies, in the order they finished:
 * two lists rather than a map keyed by response, so an answer neither grows a hash table nor
 * gives its response an identity hash.
 */
let dueResponses: ServerResponse[] = [];
let dueBodies: string[] = [];
/* The lists of the turn being flushed, kept for the next turn once emptied. */
let spareResponses: ServerResponse[] = [];
let spareBodies: string[] = [];

/** Ends `res` with `body` at the end of this turn of the event loop. */
export function endInTurn(res: ServerResponse, body: string): void {
  if (dueResponses.length === 0) setImmediate(flush);
  dueResponses.push(res);
  dueBodies.push(body);
}

/**
 * Whether `res` is already answered and only waits for the end of the turn: a failure after
 * the answer must not end it again, which would cut the body off.
 */
export function endingInTurn(res: ServerResponse): boolean {
  return dueResponses.includes(res);
}

function flush(): void {
  const responses = dueResponses;
  const bodies = dueBodies;
  dueResponses = spareResponses;
  dueBodies = spareBodies;
  for (let i = 0; i < responses.length; i++) {
    const res = responses[i]!;
    // The client left meanwhile, or the response was ended some other way: a second end
    // would only raise an error on it.
    if (res.destroyed || res.writableEnded) continue;
    // The server began closing during the turn (an app's shutdown ends the calls in flight,
    // then closes the server): it closed the idle connections then, and would wait out this
    // one's keep-alive once the answer is written. The connection ends after the answer instead
    // (the response lets go of its socket when it finishes, so the socket is taken first).
    const socket = res.socket as (Socket & { server?: Server }) | null;
    if (socket?.server?.listening === false) res.once('finish', () => socket.destroySoon());
    res.end(bodies[i]);
  }
  responses.length = 0;
  bodies.length = 0;
  spareResponses = responses;
  spareBodies = bodies;
}
