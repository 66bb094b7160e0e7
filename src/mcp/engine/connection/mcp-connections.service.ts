import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { McpConnection } from './mcp-connection.js';

/** The live connections, by `connId`. */
@Injectable()
export class McpConnections implements OnApplicationShutdown {
  private readonly byId = new Map<string, McpConnection>();

  /** The connection `connId`, created on first use (a direct caller may never subscribe). */
  get(connId: string): McpConnection {
    let connection = this.byId.get(connId);
    if (!connection) {
      connection = new McpConnection(connId);
      this.byId.set(connId, connection);
    }
    return connection;
  }

  /** The connection `connId`, if it exists (never creates one). */
  find(connId: string): McpConnection | undefined {
    return this.byId.get(connId);
  }

  /** Starts `connId` afresh, closing whatever state it had. */
  replace(connId: string): McpConnection {
    this.byId.get(connId)?.close();
    const connection = new McpConnection(connId);
    this.byId.set(connId, connection);
    return connection;
  }

  /** Closes and forgets `connection`, unless `connId` was already re-bound to a newer one. */
  drop(connection: McpConnection): void {
    connection.close();
    if (this.byId.get(connection.id) === connection) this.byId.delete(connection.id);
  }

  all(): IterableIterator<McpConnection> {
    return this.byId.values();
  }

  get size(): number {
    return this.byId.size;
  }

  onApplicationShutdown(): void {
    for (const connection of this.byId.values()) connection.close();
    this.byId.clear();
  }
}
