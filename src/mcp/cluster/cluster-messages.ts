/*
 * What instances send each other on their inbox channels (JSON). A request
 * (`q`) names the instance to reply to (`f`) and a correlation id (`c`); the
 * owner of a session answers with `r`, and pushes the events of a stream a
 * remote instance serves as `e`, ending it with `x`.
 */

/** An operation forwarded to the instance that owns a session. */
export type ClusterOperation =
  | { op: 'post'; sid: string; pk: string; principal?: unknown; body: unknown }
  | { op: 'attach'; sid: string; pk: string; stream: string }
  /** The client of a relayed stream left: `tail` is the correlation id the stream was attached with. */
  | { op: 'detach'; sid: string; stream: string; tail: string }
  | { op: 'delete'; sid: string; pk: string };

export type ClusterRequest = ClusterOperation & { t: 'q'; c: string; f: string };

/** The owner's answer: accepted (with the stream the answers will travel on), or refused. */
export type ClusterAnswer =
  | { ok: true; stream?: string; known?: boolean; mark?: string }
  | {
      ok: false;
      status: number;
      message: string;
      body?: unknown;
      /** The owner died before answering. */
      gone?: boolean;
      /** No answer came in time: the owner may have received the operation, and run it. */
      unknown?: boolean;
    };

export type ClusterReply = ClusterAnswer & { t: 'r'; c: string };

/** One event of a stream served by another instance, and that stream's end. */
export type ClusterEvent = { t: 'e'; c: string; id: string; d: string } | { t: 'x'; c: string };

/** A notification for every instance's clients. */
export interface ClusterNotification {
  t: 'n';
  f: string;
  m: string;
  p?: object;
}

export type ClusterInboxMessage = ClusterRequest | ClusterReply | ClusterEvent;
