import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsInt, IsOptional, IsString } from 'class-validator';
import {
  McpModule,
  McpPolicies,
  McpTool,
  type McpCedarPolicyOptions,
  type McpModuleOptions,
} from '../../src/index.js';

/*
 * The policy suites' fixture: tools whose decisions the Cedar set below pins, one rule per row
 * of the decision table (forbid beats permit, ask and operator annotations, no permit,
 * argument conditions, principal attributes from token claims, the entities hook, anonymous).
 */

export class TransferDto {
  @IsInt()
  amount!: number;

  @IsString()
  to!: string;
}

export class ConfirmDto {
  @IsString()
  id!: string;
}

export class ResetDto {
  @IsOptional()
  @IsString()
  reason?: string;
}

export class SearchDto {
  @IsString()
  q!: string;
}

@Injectable()
export class PolicyTools {
  @McpTool({ description: 'Search.', inputSchema: SearchDto })
  search({ q }: SearchDto) {
    return `searched ${q}`;
  }

  @McpTool({ description: 'Move money.', inputSchema: TransferDto })
  transfer({ amount, to }: TransferDto) {
    return `sent ${amount} to ${to}`;
  }

  @McpTool({ description: 'Confirm something.', inputSchema: ConfirmDto })
  confirm({ id }: ConfirmDto) {
    return `confirmed ${id}`;
  }

  @McpTool({ description: 'Reset the system.', inputSchema: ResetDto })
  reset() {
    return 'reset';
  }

  @McpTool({ description: 'Nobody may call this.' })
  secret() {
    return 'leaked';
  }
}

export const POLICIES = `
@id("search-anyone")
permit (principal, action == Mcp::Action::"search", resource);

@id("transfer-payers")
permit (principal in Mcp::Group::"payers", action == Mcp::Action::"transfer", resource);

@id("transfer-limit")
@reason("over_limit")
forbid (principal, action == Mcp::Action::"transfer", resource)
when { context.input.amount > 1000 };

@id("confirm-asks")
@ask("Confirm {input.id}?")
permit (principal is Mcp::User, action == Mcp::Action::"confirm", resource);

@id("reset-eng")
permit (principal is Mcp::User, action == Mcp::Action::"reset", resource)
when { principal has dept && principal.dept == "eng" };

@id("reset-maintainers-ask-operator")
@ask("Reset because {input.reason}?")
@approver("operator")
permit (principal in Mcp::Role::"maintainer", action == Mcp::Action::"reset", resource);

@id("reads")
permit (principal, action in Mcp::Action::"mcp/read", resource);
`;

/** The Cedar options of the suites: groups and `dept` from token claims, roles from a hook. */
export function policyOptions(extra: Partial<McpCedarPolicyOptions> = {}): McpCedarPolicyOptions {
  return {
    policies: { text: POLICIES },
    groupsClaim: 'groups',
    claims: { dept: 'dept' },
    // A directory in miniature: mia maintains the system.
    entities: (principal) =>
      principal?.subject === 'mia'
        ? [
            {
              uid: { type: 'Mcp::User', id: 'mia' },
              parents: [{ type: 'Mcp::Role', id: 'maintainer' }],
            },
          ]
        : [],
    ...extra,
  };
}

/** An app on `port` (its bearer audience names it) whose seams the Cedar set decides. */
/** The fixture module with `policy` (the fixture set by default) and `extra` options, not yet initialised. */
export async function bootPolicyModule(
  policy = McpPolicies.cedar(policyOptions()),
  extra: Partial<McpModuleOptions> = {},
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [McpModule.forRoot({ name: 'policy-test', version: '1.0.0', policy, ...extra })],
    providers: [PolicyTools],
  }).compile();
  return moduleRef.createNestApplication({ logger: false });
}

/** The same, initialised (no listener). */
export async function bootedPolicyModule(
  policy = McpPolicies.cedar(policyOptions()),
): Promise<INestApplication> {
  const app = await bootPolicyModule(policy);
  await app.init();
  return app;
}

/** The same with `options` over the fixture set, listening on `port`. */
export async function policyApp(
  options: Partial<McpModuleOptions>,
  port: number,
): Promise<INestApplication> {
  const app = await bootPolicyModule(undefined, options);
  await app.listen(port, '127.0.0.1');
  return app;
}

/** Callers of the lifecycle suites: an operator, and a payer with groups and a department claim. */
export const MIA = {
  subject: 'mia',
  scopes: ['ops'],
  issuer: 'https://issuer.example',
  claims: {},
};
export const ALICE = {
  subject: 'alice',
  scopes: ['pay'],
  issuer: 'https://issuer.example',
  claims: { groups: ['payers'], dept: 'eng' },
};

/** A tool seam deny's structured content. */
export function denial(tool: string, detail: string) {
  return { error: 'authorization_required', tool, decision: 'deny', detail };
}
