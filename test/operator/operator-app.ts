import { Injectable, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { filter, firstValueFrom } from 'rxjs';
import {
  Authorizers,
  MCP_OPERATOR_DESK,
  McpModule,
  McpTool,
  McpWarden,
  type Authorizer,
  type McpAuditEvent,
  type McpModuleOptions,
  type McpOperatorAsk,
  type McpOperatorDesk,
  type McpPrincipal,
} from '../../src/index.js';
import { freePort } from '../auth/auth-app.js';
import type { TestIssuer } from '../support/oidc/index.js';
import { promptClose } from '../support/idle-sockets.js';

/*
 * The fixture of the four-eyes suites: `purge_notes` asks an operator (not
 * the caller), `tidy` is allowed; bearer tokens from a real oidc-provider.
 */

export const PURGE_PROMPT = 'Purge every note?';
export const runs = { purge: 0 };

@Injectable()
export class OperatorTools {
  @McpTool({ description: 'Purge the notes (an operator approves)', input: { type: 'object' } })
  purge_notes(args: { scope?: string }) {
    runs.purge++;
    return `purged ${args.scope ?? 'all'}`;
  }
}

export const operatorAuthorizer: Authorizer = (name) =>
  name === 'purge_notes'
    ? { kind: 'ask', prompt: PURGE_PROMPT, approver: 'operator' }
    : { kind: 'allow' };

export interface OperatorApp {
  readonly app: INestApplication;
  readonly url: string;
  readonly desk: McpOperatorDesk;
  /** The decision events (seams and approvers). */
  readonly audit: McpAuditEvent[];
  /** Every audit event, outcomes included. */
  readonly events: McpAuditEvent[];
  /** The next ask to be recorded (subscribe before the call that makes it). */
  nextAsk(): Promise<McpOperatorAsk>;
  /** A bearer token for `sub` with `scope`, audience this app. */
  token(sub: string, scope?: string): Promise<string>;
  close(): Promise<void>;
}

export async function bootOperatorApp(
  issuer: TestIssuer,
  options: Partial<McpModuleOptions> = {},
): Promise<OperatorApp> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const url = `${base}/mcp`;
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpModule.forRoot({
        name: 'operator-test',
        version: '1.0.0',
        transport: 'http',
        authorizer: operatorAuthorizer,
        authorizerSource: 'configured',
        readAuthorizer: Authorizers.allowAll(),
        requireAuthorization: false,
        elicitationTimeoutMs: 10_000,
        http: { auth: { issuer: issuer.issuer, audience: url, jwksUri: issuer.jwksUri } },
        ...options,
      }),
    ],
    providers: [OperatorTools],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(port, '127.0.0.1');
  const closeApp = promptClose(app);
  const desk = app.get<McpOperatorDesk>(MCP_OPERATOR_DESK);
  const audit: McpAuditEvent[] = [];
  const events: McpAuditEvent[] = [];
  const auditing = app.get(McpWarden).audit$.subscribe((event) => {
    events.push(event);
    if (event.kind === 'decision') audit.push(event);
  });
  return {
    app,
    url,
    desk,
    audit,
    events,
    nextAsk: () =>
      firstValueFrom(desk.events$.pipe(filter((event) => event.type === 'pending'))).then(
        (event) => (event as { ask: McpOperatorAsk }).ask,
      ),
    token: (sub, scope = 'notes:write') => issuer.mintToken({ aud: url, sub, scope }),
    async close() {
      auditing.unsubscribe();
      await closeApp();
    },
  };
}

/** An operator as the desk is given one (the console or a webhook link authenticates it). */
export function operator(
  issuer: TestIssuer,
  subject: string,
  scopes = ['mcp:approve'],
): McpPrincipal {
  return { subject, issuer: issuer.issuer, scopes };
}

export { at } from '../support/deadline.js';
