import { filter, firstValueFrom, type Observable, type Subscription } from 'rxjs';
import type { McpServer } from '../../src/index.js';

type Msg = Record<string, any>;

/** What a connection's outbound channel has carried, and a way to wait for more. */
export interface Outbound {
  /** Every message the server sent the connection, in order. */
  messages: Msg[];
  subscription: Subscription;
  /** The messages so far whose method is `method`. */
  ofMethod: (method: string) => Msg[];
  /** The first outbound message from now on that matches `predicate`. */
  next: (predicate: (m: Msg) => boolean) => Promise<Msg>;
}

/** Subscribes once to a connection's outbound channel and records every message. */
export function listen(server: McpServer, connId: string): Outbound {
  const outbound = server.subscribe(connId) as Observable<Msg>;
  const messages: Msg[] = [];
  const subscription = outbound.subscribe((message) => messages.push(message));
  return {
    messages,
    subscription,
    ofMethod: (method) => messages.filter((m) => m.method === method),
    next: (predicate) => firstValueFrom(outbound.pipe(filter(predicate))),
  };
}
