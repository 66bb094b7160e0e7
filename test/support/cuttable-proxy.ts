import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy on loopback in front of a real server, whose link can be cut
 * (every connection dropped, new ones refused) and restored on the same
 * port: how a test takes a dependency "down" without stopping a server that
 * other suites share.
 */
export class CuttableProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  /** Each connection's two ends, for a silence. */
  private readonly links = new Set<[Socket, Socket]>();
  port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy to `targetHost:targetPort`, listening on a free loopback port. */
  static async start(targetHost: string, targetPort: number): Promise<CuttableProxy> {
    const proxy = new CuttableProxy(targetHost, targetPort);
    await proxy.restore();
    return proxy;
  }

  /** Listens again (on the same port after a cut). */
  async restore(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.once('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      const link: [Socket, Socket] = [client, upstream];
      this.links.add(link);
      client.once('close', () => this.links.delete(link));
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Drops every connection and stops listening: new connections are refused. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Every open connection goes silent, neither closed nor reset: what either end sends is never
   * passed on (a partition, a host gone without a word). New connections still pass.
   */
  silence(): void {
    for (const [client, upstream] of this.links) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
    }
    this.links.clear();
  }

  close(): Promise<void> {
    return this.cut();
  }
}
