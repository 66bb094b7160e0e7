import type { CedarValueJson, EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { AuthorizerContext } from '../../authorization/authorizer.interface.js';
import type { McpPrincipal } from '../../authentication/principal.interface.js';
import type { McpCedarCall, McpCedarEntity } from '../policy-options.interface.js';
import { principalEntity, type ClaimMapping } from './principal-entity.js';
import { ENTITY, RESOURCE_READS, PROMPT_READS } from './vocabulary.js';

/** One decision's request, before a policy set's input types shape its context. */
export interface CedarRequest {
  readonly seam: 'tool' | 'read';
  readonly action: string;
  readonly purpose: 'call' | 'visibility';
  readonly args: Readonly<Record<string, unknown>>;
  readonly session: { transport: string; era: string };
  /** Principal first, resource second, then the app's own. */
  readonly entities: readonly EntityJson[];
  /** The entities, serialized: what the decision cache keys them by. */
  readonly entitiesKey: string;
}

/** The app's hook for extra entities, as `McpCedarPolicyOptions.entities`. */
export type EntitiesHook = (
  principal: AuthorizerContext['principal'],
  context: AuthorizerContext,
  call: McpCedarCall,
) => readonly McpCedarEntity[] | Promise<readonly McpCedarEntity[]>;

/**
 * Builds the principal and resource entities of a decision (DESIGN §6.2) and, when the app has
 * an `entities` hook, adds what it returns. Identity comes from the verified principal only:
 * the hook may add parents, tags and attributes, never replace a verified attribute.
 */
export function buildRequest(
  seam: 'tool' | 'read',
  action: string,
  args: Readonly<Record<string, unknown>>,
  context: AuthorizerContext,
  serverName: string,
  mapping: ClaimMapping,
  hook: EntitiesHook | undefined,
): CedarRequest | Promise<CedarRequest> {
  const purpose = context.purpose ?? 'call';
  const principal = principalOf(context.principal, mapping);
  const resource = resourceEntity(seam, action, args, serverName);
  const session = { transport: context.transport, era: context.era ?? 'legacy' };
  /*
   * Written out, not spread from a shared base: V8 11 (Node 20) gives every object built by a
   * spread followed by more properties a hidden class of its own (docs/performance.md,
   * "Hidden classes").
   */
  const request = (entities: EntityJson[], entitiesKey: string): CedarRequest => ({
    seam,
    action,
    purpose,
    args,
    session,
    entities,
    entitiesKey,
  });
  // Without a hook, or when it adds nothing (the common case: a hook concerns a few actions),
  // the memoized entities and their serializations serve: nothing is copied or stringified.
  const plain = (): CedarRequest =>
    request([principal.entity, resource.entity], `${principal.json}\u0000${resource.json}`);
  if (!hook) return plain();
  const call: McpCedarCall = {
    action,
    arguments: args,
    resource: resource.entity.uid as McpCedarCall['resource'],
    purpose,
  };
  const extra = hook(context.principal, context, call);
  const finish = (added: readonly McpCedarEntity[]): CedarRequest => {
    if (!added || added.length === 0) return plain();
    const entities = merge(principal.entity, resource.entity, added);
    return request(entities, JSON.stringify(entities));
  };
  return isThenable(extra) ? Promise.resolve(extra).then(finish) : finish(extra);
}

/** An entity and its serialized form (the decision cache's key reads the latter). */
interface Serialized {
  readonly entity: EntityJson;
  readonly json: string;
}

function serialized(entity: EntityJson): Serialized {
  return { entity, json: JSON.stringify(entity) };
}

/*
 * A principal is built once per verified principal object (they are read-only), not per call:
 * a caller's calls then cost neither the entity nor its serialization again.
 */
const principals = new WeakMap<object, Serialized & { readonly mapping: ClaimMapping }>();
let anonymous: Serialized | undefined;

function principalOf(principal: McpPrincipal | undefined, mapping: ClaimMapping): Serialized {
  if (!principal) return (anonymous ??= serialized(principalEntity(undefined, mapping)));
  const known = principals.get(principal);
  if (known && known.mapping === mapping) return known;
  const made = { ...serialized(principalEntity(principal, mapping)), mapping };
  principals.set(principal, made);
  return made;
}

/* The server is the resource of every call and most reads: one entity per server name. */
const servers = new Map<string, Serialized>();

function resourceEntity(
  seam: 'tool' | 'read',
  action: string,
  args: Readonly<Record<string, unknown>>,
  serverName: string,
): Serialized {
  if (seam === 'read' && RESOURCE_READS.has(action)) {
    const uri = typeof args.uri === 'string' ? args.uri : '';
    return serialized({ uid: { type: ENTITY.resource, id: uri }, attrs: { uri }, parents: [] });
  }
  if (seam === 'read' && PROMPT_READS.has(action)) {
    const name = typeof args.name === 'string' ? args.name : '';
    return serialized({ uid: { type: ENTITY.prompt, id: name }, attrs: { name }, parents: [] });
  }
  let server = servers.get(serverName);
  if (!server) {
    server = serialized({
      uid: { type: ENTITY.server, id: serverName },
      attrs: { name: serverName },
      parents: [],
    });
    // Server names are few (one per McpModule); the bound keeps a misuse from growing it.
    if (servers.size < 64) servers.set(serverName, server);
  }
  return server;
}

function merge(
  principal: EntityJson,
  resource: EntityJson,
  added: readonly McpCedarEntity[],
): EntityJson[] {
  const own = [principal, resource].map((entity) => ({
    ...entity,
    parents: [...entity.parents],
    tags: {} as Record<string, CedarValueJson>,
  }));
  const others: EntityJson[] = [];
  for (const entity of added) {
    const target = own.find((mine) => sameUid(mine.uid, entity.uid));
    if (!target) {
      others.push({
        uid: { type: entity.uid.type, id: entity.uid.id },
        attrs: { ...(entity.attrs ?? {}) } as Record<string, CedarValueJson>,
        parents: (entity.parents ?? []).map((parent) => ({ type: parent.type, id: parent.id })),
        ...(entity.tags ? { tags: { ...entity.tags } } : {}),
      });
      continue;
    }
    // The verified attributes are written last, so the hook cannot replace them.
    target.attrs = { ...(entity.attrs as Record<string, CedarValueJson>), ...target.attrs };
    target.parents.push(
      ...(entity.parents ?? []).map((parent) => ({ type: parent.type, id: parent.id })),
    );
    Object.assign(target.tags, entity.tags ?? {});
  }
  return [...own.map(withoutEmptyTags), ...others];
}

function withoutEmptyTags(entity: EntityJson): EntityJson {
  if (entity.tags && Object.keys(entity.tags).length > 0) return entity;
  const { tags: _tags, ...rest } = entity;
  return rest;
}

function sameUid(a: EntityJson['uid'], b: { type: string; id: string }): boolean {
  const plain = '__entity' in a ? a.__entity : a;
  return plain.type === b.type && plain.id === b.id;
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown })?.then === 'function';
}
