import type { PolicyJson, SchemaJson } from '@cedar-policy/cedar-wasm/nodejs';

/*
 * The small policy set the head start's worker warms Cedar with (cedar-compile.worker.ts): a
 * schema, and three policies that between them reach what a boot and its first decisions call
 * (`like`, `has`, tags, a group, annotations). Each policy is written twice: as text, which the
 * parser and the validator read, and as Cedar's JSON, which a boot that takes a kept parse
 * (validation.cache.ts) preparses without parsing anything. A spec checks that Cedar parses each
 * text to its JSON (warm-up.set.spec.ts).
 */

export const WARM_UP_SCHEMA: SchemaJson<string> = {
  W: {
    commonTypes: { Session: { type: 'Record', attributes: { transport: { type: 'String' } } } },
    entityTypes: {
      Group: { memberOfTypes: ['Group'] },
      User: {
        memberOfTypes: ['Group'],
        shape: {
          type: 'Record',
          attributes: {
            subject: { type: 'String' },
            issuer: { type: 'String', required: false },
            scopes: { type: 'Set', element: { type: 'String' } },
          },
        },
      },
      Anonymous: {},
      Server: {
        shape: { type: 'Record', attributes: { name: { type: 'String' } } },
        tags: { type: 'String' },
      },
    },
    actions: {
      'tools/call': {},
      note: {
        memberOf: [{ id: 'tools/call' }],
        appliesTo: {
          principalTypes: ['User', 'Anonymous'],
          resourceTypes: ['Server'],
          context: {
            type: 'Record',
            attributes: {
              input: {
                type: 'Record',
                attributes: {
                  text: { type: 'String' },
                  count: { type: 'Long', required: false },
                  tags: { type: 'Set', element: { type: 'String' }, required: false },
                },
              },
              session: { type: 'Session' },
            },
          },
        },
      },
    },
  },
};

/* `context.a.b` in Cedar's JSON. */
const context = (...path: string[]): object =>
  path.reduce<object>((left, attr) => ({ '.': { left, attr } }), { Var: 'context' });
const and = (left: object, right: object) => ({ '&&': { left, right } });

export const WARM_UP_POLICIES: Readonly<Record<string, { text: string; json: PolicyJson }>> = {
  asks: {
    text: [
      '@id("asks")',
      '@ask("Write {input.text}?")',
      'permit (principal in W::Group::"writers", action == W::Action::"note", resource)',
      '  when { context.input.text like "a*" && context.input has count && context.input.count > 3 }',
      '  unless { principal.scopes.contains("read-only") || context.session.transport == "stdio" };',
    ].join('\n'),
    json: {
      effect: 'permit',
      principal: { op: 'in', entity: { type: 'W::Group', id: 'writers' } },
      action: { op: '==', entity: { type: 'W::Action', id: 'note' } },
      resource: { op: 'All' },
      conditions: [
        {
          kind: 'when',
          body: and(
            and(
              { like: { left: context('input', 'text'), pattern: [{ Literal: 'a' }, 'Wildcard'] } },
              { has: { left: context('input'), attr: 'count' } },
            ),
            { '>': { left: context('input', 'count'), right: { Value: 3 } } },
          ),
        },
        {
          kind: 'unless',
          body: {
            '||': {
              left: {
                contains: {
                  left: { '.': { left: { Var: 'principal' }, attr: 'scopes' } },
                  right: { Value: 'read-only' },
                },
              },
              right: { '==': { left: context('session', 'transport'), right: { Value: 'stdio' } } },
            },
          },
        },
      ],
      annotations: { id: 'asks', ask: 'Write {input.text}?' },
    } as PolicyJson,
  },
  forbids: {
    text: [
      '@id("forbids")',
      '@reason("tagged")',
      'forbid (principal, action in [W::Action::"tools/call"], resource is W::Server)',
      '  when { resource.hasTag("closed") && resource.getTag("closed") == "yes" };',
    ].join('\n'),
    json: {
      effect: 'forbid',
      principal: { op: 'All' },
      action: { op: 'in', entity: { type: 'W::Action', id: 'tools/call' } },
      resource: { op: 'is', entity_type: 'W::Server' },
      conditions: [
        {
          kind: 'when',
          body: and(
            { hasTag: { left: { Var: 'resource' }, right: { Value: 'closed' } } },
            {
              '==': {
                left: { getTag: { left: { Var: 'resource' }, right: { Value: 'closed' } } },
                right: { Value: 'yes' },
              },
            },
          ),
        },
      ],
      annotations: { id: 'forbids', reason: 'tagged' },
    } as PolicyJson,
  },
  anonymous: {
    text: 'permit (principal is W::Anonymous, action, resource);',
    json: {
      effect: 'permit',
      principal: { op: 'is', entity_type: 'W::Anonymous' },
      action: { op: 'All' },
      resource: { op: 'All' },
      conditions: [],
    },
  },
};
