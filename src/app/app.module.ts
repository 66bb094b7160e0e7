import { Module, type DynamicModule } from '@nestjs/common';
import { McpModule, type McpHttpOptions, type McpTransportKind } from '../index.js';
import { AuditLogService } from './audit/audit-log.service.js';
import { serviceAuditFromEnv } from './audit/service-audit.js';
import { NOTES_DATABASE } from './app.constants.js';
import type { NotesDatabaseOptions } from './database/notes-database.options.js';
import {
  serviceAuthFromEnv,
  serviceHostsFromEnv,
  serviceLimitsFromEnv,
} from './auth/service-auth.js';
import { serviceApprovalsFromEnv } from './auth/service-approvals.js';
import { NotesPrompts } from './notes/notes.prompts.js';
import { NotesResources } from './notes/notes.resources.js';
import { NotesStoreModule } from './notes/notes-store.module.js';
import { NotesStore } from './notes/notes.store.js';
import { NotesTools } from './notes/notes.tools.js';
import { notesPolicy } from './policy/notes.policy.js';
import { NotifyTeamTools } from './notify-team/notify-team.tools.js';
import {
  NOTIFY_TEAM_SETTINGS,
  notifyTeamFromEnv,
  type NotifyTeamSettings,
} from './notify-team/notify-team.settings.js';
import type { AppParts } from './operations/http-operations.parts.js';

/**
 * The team-notes MCP service, its seams decided by the Cedar policies in `policies/`.
 * `parts` are what one entry point adds (the HTTP one: health, readiness and
 * metrics, see `httpOperations`).
 */
@Module({})
export class AppModule {
  static forTransport(transport: McpTransportKind, parts: AppParts = {}): DynamicModule {
    // Optional: tell the team's API about a note, as the caller (HTTP with bearer auth only).
    const notifyTeam = transport === 'http' ? notifyTeamFromEnv() : undefined;
    return {
      module: AppModule,
      imports: [
        McpModule.forRootAsync({
          // Beside the factory: the HTTP routes are declared before it runs.
          transport,
          // The policy's entities hook reads whose note a delete is about.
          imports: [NotesStoreModule],
          inject: [NotesStore, NOTES_DATABASE],
          useFactory: (notes: NotesStore, database: NotesDatabaseOptions) => ({
            name: 'mcp-warden-notes',
            version: '0.1.0',
            instructions: 'Team notes: search, create and (with approval) delete notes.',
            transport,
            // Cedar policies in policies/ decide both seams (docs/policy.md).
            policy: notesPolicy(notes, { notifyTeam: notifyTeam !== undefined }),
            // Every decision and outcome, chained (and signed) in the notes' own database.
            audit: serviceAuditFromEnv(notes, database),
            // Instances that share it accept each other's modern requestState.
            stateSecret: process.env.MCP_STATE_SECRET,
            // REDIS_URL: instances sharing it behave as one server behind any load balancer.
            cluster: process.env.REDIS_URL
              ? {
                  redisUrl: process.env.REDIS_URL,
                  keyPrefix: process.env.REDIS_KEY_PREFIX || undefined,
                }
              : undefined,
            http:
              transport === 'http'
                ? {
                    auth: withTokenExchange(serviceAuthFromEnv(), notifyTeam),
                    ...serviceHostsFromEnv(),
                  }
                : {},
            limits: serviceLimitsFromEnv(),
            approvals: transport === 'http' ? serviceApprovalsFromEnv() : undefined,
          }),
        }),
        NotesStoreModule,
        ...(parts.imports ?? []),
      ],
      controllers: parts.controllers ?? [],
      providers: [
        NotesTools,
        NotesResources,
        NotesPrompts,
        AuditLogService,
        ...(notifyTeam
          ? [{ provide: NOTIFY_TEAM_SETTINGS, useValue: notifyTeam }, NotifyTeamTools]
          : []),
        ...(parts.providers ?? []),
      ],
    };
  }
}

/* The service's own client at the issuer, for the team notifications' token exchange. */
function withTokenExchange(
  auth: McpHttpOptions['auth'],
  notifyTeam: NotifyTeamSettings | undefined,
): McpHttpOptions['auth'] {
  if (!auth || !notifyTeam) return auth;
  const { clientId, clientSecret } = notifyTeam;
  return { ...auth, tokenExchange: { clientId, clientSecret } };
}
