import { Inject, Injectable } from '@nestjs/common';
import { McpTool, McpToolError, type McpToolContext } from '../../index.js';
import { NotesStore } from '../notes/notes.store.js';
import { NotifyTeamDto } from './notify-team.dto.js';
import { NOTIFY_TEAM_SETTINGS, type NotifyTeamSettings } from './notify-team.settings.js';

/* The team API answers well within this, or the call says it did not. */
const TEAM_API_TIMEOUT_MS = 5_000;

/**
 * `notify_team`, served only when the team notifications are configured: tells the team's API
 * about a note, as the caller. The caller's token is exchanged (RFC 8693) for one whose
 * audience is the team API, so that API sees who asked and that this service acts for them
 * (docs/token-exchange.md); the caller's own token never leaves the service.
 */
@Injectable()
export class NotifyTeamTools {
  constructor(
    private readonly store: NotesStore,
    @Inject(NOTIFY_TEAM_SETTINGS) private readonly settings: NotifyTeamSettings,
  ) {}

  @McpTool({
    name: 'notify_team',
    description: "Tell the team about a note, through the team's API, as the caller.",
    inputSchema: NotifyTeamDto,
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  })
  async notify({ id, message }: NotifyTeamDto, ctx: McpToolContext) {
    const note = await this.store.get(id);
    if (!note) throw new McpToolError(`No note with id ${id}`);
    const { audience, scope, url } = this.settings;
    const token = await ctx.credentials.exchange({ audience, ...(scope ? { scope } : {}) });
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ note: { id: note.id, title: note.title }, message: message ?? '' }),
      signal: AbortSignal.timeout(TEAM_API_TIMEOUT_MS),
    }).catch(() => {
      throw new McpToolError('the team API did not answer');
    });
    // The status only: the model reads this message, and the API's body may say too much.
    if (!response.ok) throw new McpToolError(`the team API answered ${response.status}`);
    ctx.log('info', { event: 'team_notified', id }, 'notes');
    return `Told the team about note ${id}`;
  }
}
