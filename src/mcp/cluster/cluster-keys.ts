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
  /** The audit's signed checkpoints of every instance (a Redis Stream; docs/audit.md). */
  get auditCheckpoints(): string {
    return `${this.prefix}audit:checkpoints`;
  }
  /** A session's event log (a Redis Stream) for Last-Event-ID replay. */
  log(id: string): string {
    return `${this.prefix}log:${id}`;
  }
  /** A single-use nonce, kept until its state (or notice, or link) expires. */
  nonce(nonce: string): string {
    return `${this.prefix}nonce:${nonce}`;
  }
  /** A caller's live `requestState` nonces, scored by expiry (its share of the store). */
  noncesOf(key: string): string {
    return `${this.prefix}nonces:caller:${key}`;
  }
  /** Every caller's live `requestState` nonces, scored by expiry (the store's bound). */
  get noncesAll(): string {
    return `${this.prefix}nonces:all`;
  }
  /** A caller's call-rate bucket. */
  rate(key: string): string {
    return `${this.prefix}rate:${key}`;
  }
  /** Sessions held per caller, one hash field per instance. */
  quota(key: string): string {
    return `${this.prefix}quota:${key}`;
  }
  /** An operator ask's record (a hash: the ask, and its decision once taken). */
  approval(id: string): string {
    return `${this.prefix}approval:${id}`;
  }
  /** Every live operator ask, pending or decided, scored by expiry (the store's bound). */
  get approvalsAll(): string {
    return `${this.prefix}approvals:all`;
  }
  /** Pending operator asks, scored by expiry. */
  get approvalsPending(): string {
    return `${this.prefix}approvals:pending`;
  }
  /** A caller's operator asks, scored by expiry (its share of the store). */
  approvalsOf(key: string): string {
    return `${this.prefix}approvals:caller:${key}`;
  }
  /** The operator ask a call's binding names (docs/operator-approvals.md), expiring with it. */
  approvalBinding(binding: string): string {
    return `${this.prefix}approvals:binding:${binding}`;
  }
  /** The channel operator ask events travel on, to every instance. */
  get approvalsChannel(): string {
    return `${this.prefix}approvals:events`;
  }
  /** A task (docs/tasks.md): a hash of its JSON and a version, expiring at its TTL. */
  task(id: string): string {
    return `${this.prefix}task:${id}`;
  }
  /** A caller's tasks, scored by expiry (its share of `limits.maxTasks`). */
  tasksOf(key: string): string {
    return `${this.prefix}tasks:caller:${key}`;
  }
  /** Every caller's tasks, scored by expiry (the store's bound). */
  get tasksAll(): string {
    return `${this.prefix}tasks:all`;
  }
  /** The channel task changes, cancels and answers travel on, to every instance. */
  get tasksChannel(): string {
    return `${this.prefix}tasks:events`;
  }
}
