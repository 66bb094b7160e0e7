import type { CedarValueJson, EntityJson } from '@cedar-policy/cedar-wasm/nodejs';
import type { AuthorizerContext } from '../../authorization/authorizer.interface.js';
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
  const principal = principalEntity(context.principal, mapping);
  const resource = resourceEntity(seam, action, args, serverName);
  const session = { transport: context.transport, era: context.era ?? 'legacy' };
  const base = { seam, action, purpose, args, session } as const;
  if (!hook) return { ...base, entities: [principal, resource] };
  const call: McpCedarCall = {
    action,
    arguments: args,
    resource: resource.uid as McpCedarCall['resource'],
    purpose,
  };
  const extra = hook(context.principal, context, call);
  const finish = (added: readonly McpCedarEntity[]): CedarRequest => ({
    ...base,
    entities: merge(principal, resource, added ?? []),
  });
  return isThenable(extra) ? Promise.resolve(extra).then(finish) : finish(extra);
}

function resourceEntity(
  seam: 'tool' | 'read',
  action: string,
  args: Readonly<Record<string, unknown>>,
  serverName: string,
): EntityJson {
  if (seam === 'read' && RESOURCE_READS.has(action)) {
    const uri = typeof args.uri === 'string' ? args.uri : '';
    return { uid: { type: ENTITY.resource, id: uri }, attrs: { uri }, parents: [] };
  }
  if (seam === 'read' && PROMPT_READS.has(action)) {
    const name = typeof args.name === 'string' ? args.name : '';
    return { uid: { type: ENTITY.prompt, id: name }, attrs: { name }, parents: [] };
  }
  return { uid: { type: ENTITY.server, id: serverName }, attrs: { name: serverName }, parents: [] };
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
