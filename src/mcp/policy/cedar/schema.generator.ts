import type { SchemaJson } from '@cedar-policy/cedar-wasm/nodejs';
import { inputRecordType, type CedarType, type UntypedProperty } from './input-types.js';
import { MCP_READ, NAMESPACE, READ_ACTIONS, TOOLS_CALL, readResourceType } from './vocabulary.js';

/** What the schema is generated from: each tool's name and input schema. */
export interface PolicyTool {
  readonly name: string;
  readonly inputSchema: Record<string, unknown>;
}

/** A generated schema, and the input types the policy layer converts arguments with. */
export interface GeneratedSchema {
  readonly json: SchemaJson<string>;
  /** Each tool's `context.input` record type. */
  readonly inputs: ReadonlyMap<string, CedarType>;
  readonly untyped: readonly UntypedProperty[];
}

const PRINCIPALS = ['User', 'Anonymous'];
const SESSION: CedarType = { type: 'Session' } as unknown as CedarType;

/**
 * The Cedar schema of DESIGN §6.2 for these tools: principals, groups and roles, the server,
 * resources and prompts, one action per tool (a member of `tools/call`) and one per read
 * method (a member of `mcp/read`). `claims` are the principal attributes mapped from token
 * claims: each is an optional string.
 */
export function generateSchema(
  tools: readonly PolicyTool[],
  claims: readonly string[] = [],
): GeneratedSchema {
  const untyped: UntypedProperty[] = [];
  const inputs = new Map<string, CedarType>();
  const actions: SchemaJson<string>[string]['actions'] = {
    [TOOLS_CALL]: {},
    [MCP_READ]: {},
  };
  for (const tool of tools) {
    const input = inputRecordType(tool.name, tool.inputSchema, untyped);
    inputs.set(tool.name, input);
    actions[tool.name] = {
      memberOf: [{ id: TOOLS_CALL }],
      appliesTo: {
        principalTypes: PRINCIPALS,
        resourceTypes: ['Server'],
        context: { type: 'Record', attributes: { input, session: SESSION } },
      },
    };
  }
  for (const method of READ_ACTIONS) {
    actions[method] = {
      memberOf: [{ id: MCP_READ }],
      appliesTo: {
        principalTypes: PRINCIPALS,
        resourceTypes: [readResourceType(method).slice(NAMESPACE.length + 2)],
        context: { type: 'Record', attributes: { session: SESSION } },
      },
    };
  }
  const string = { type: 'String' } as const;
  const optional = { type: 'String', required: false } as const;
  const userAttributes: Record<string, CedarType> = {
    subject: string,
    issuer: optional,
    clientId: optional,
    scopes: { type: 'Set', element: string },
  };
  for (const claim of claims) userAttributes[claim] ??= optional;
  const json: SchemaJson<string> = {
    [NAMESPACE]: {
      commonTypes: {
        Session: {
          type: 'Record',
          attributes: { transport: string, era: string },
        },
      },
      entityTypes: {
        Group: { memberOfTypes: ['Group'] },
        Role: { memberOfTypes: ['Role'] },
        User: {
          memberOfTypes: ['Group', 'Role'],
          shape: { type: 'Record', attributes: userAttributes },
        },
        Anonymous: {},
        // Tags carry facts an app looks up per call (the `entities` hook), e.g. a note's author.
        Server: { shape: record({ name: string }), tags: string },
        Resource: { shape: record({ uri: string }), tags: string },
        Prompt: { shape: record({ name: string }), tags: string },
      },
      actions,
    },
  };
  return { json, inputs, untyped };
}

function record(attributes: Record<string, CedarType>): CedarType {
  return { type: 'Record', attributes };
}
