/** Every Redis key and channel of one cluster, under its prefix. */
export class ClusterKeys {
  constructor(readonly prefix: string) {}

  /** Present (with a short TTL the instance keeps renewing) while the instance lives. */
  alive(instance: string): string {
    return `${this.prefix}alive:${instance}`;
  }
  /** The channel an instance receives forwarded requests, replies and events on. */
  inbox(instance: string): string {
    return `${this.prefix}inbox:${instance}`;
  }
  /** The channel every instance hears (notifications). */
  get broadcast(): string {
    return `${this.prefix}broadcast`;
  }
  /** A session's directory record: its owner instance and principal. */
  session(id: string): string {
    return `${this.prefix}session:${id}`;
  }
  /** A session's event log (a Redis Stream) for Last-Event-ID replay. */
  log(id: string): string {
    return `${this.prefix}log:${id}`;
  }
  nonce(nonce: string): string {
    return `${this.prefix}nonce:${nonce}`;
  }
  /** A caller's call-rate bucket. */
  rate(key: string): string {
    return `${this.prefix}rate:${key}`;
  }
  /** Sessions held per caller, one hash field per instance. */
  quota(key: string): string {
    return `${this.prefix}quota:${key}`;
  }
}
