/**
 * Carries notifications to the clients of the other instances (cluster
 * mode); without it a notification reaches this process's clients only.
 */
export interface McpNotificationRelay {
  /** Sends one notification to every other instance. */
  relay(method: string, params?: object): void;
  /** Registers who delivers the other instances' notifications here. */
  hear(deliver: (method: string, params?: object) => void): void;
}

/** DI token of the notification relay (null without `cluster`). */
export const MCP_NOTIFICATION_RELAY = 'McpWarden:notificationRelay';
