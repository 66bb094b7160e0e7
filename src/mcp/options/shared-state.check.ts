import type { McpResolvedOptions } from './resolved-options.interface.js';

/** One server, by name, with its resolved options. */
interface Server {
  readonly name: string;
  readonly options: McpResolvedOptions;
}

/**
 * What two servers of one app must never share, or one server's state would
 * serve the other (docs/several-servers.md): a store or sink object (an
 * approval handed to one would run a call on the other; two audit chains
 * would interleave), a Redis key prefix (sessions, approvals and quotas would
 * be found, and relayed, across servers), or an audit instance id. The
 * problem, or undefined when there is none.
 */
export function sharedState(servers: readonly Server[]): string | undefined {
  const objects = new Map<object, string>();
  const values = new Map<string, string>();
  for (const { name, options } of servers) {
    const held: [object | undefined, string][] = [
      ...(options.audit?.sinks ?? []).map((sink) => [sink, 'audit sink'] as [object, string]),
      [options.approvals.store, 'approvals.store'],
      [options.tasks.store, 'tasks.store'],
      [options.nonceStore, 'nonceStore'],
    ];
    for (const [object, what] of held) {
      if (object === undefined) continue;
      const other = objects.get(object);
      if (other !== undefined) {
        return `servers '${other}' and '${name}' were given the same ${what} object; make one per server (they may keep their data in one place)`;
      }
      objects.set(object, name);
    }
    const keyed: [string | undefined, string][] = [
      [
        options.cluster && `${options.cluster.redisUrl} ${options.cluster.keyPrefix}`,
        'cluster.keyPrefix',
      ],
      [options.audit?.instance, 'audit.instance'],
    ];
    for (const [value, what] of keyed) {
      if (value === undefined) continue;
      const key = `${what}\u0000${value}`;
      const other = values.get(key);
      if (other !== undefined) {
        return `servers '${other}' and '${name}' share one ${what}; give each its own (or leave it out: each server then gets its own)`;
      }
      values.set(key, name);
    }
  }
  return undefined;
}
