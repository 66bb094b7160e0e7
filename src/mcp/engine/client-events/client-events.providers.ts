import type { Provider } from '@nestjs/common';
import { McpUrlElicitations } from '../elicitation/mcp-url-elicitations.service.js';
import { McpClientEvents } from './mcp-client-events.service.js';

/** The app's side of talking to clients outside a request: their notifications, URL elicitations. */
export const CLIENT_EVENTS_PROVIDERS: Provider[] = [McpClientEvents, McpUrlElicitations];
