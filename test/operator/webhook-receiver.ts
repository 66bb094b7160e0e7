import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got: its headers and its body exactly as sent. */
export interface ReceivedNotice {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** How the receiver answers a request (default 204); it may hold the answer back. */
export type Answer = (req: IncomingMessage, res: ServerResponse, received: number) => void;

/** A real HTTP receiver on a loopback port that records every request it gets. */
export class WebhookReceiver {
  readonly received: ReceivedNotice[] = [];
  answer: Answer = (_req, res) => res.writeHead(204).end();
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.once('end', () => {
        this.received.push({
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        this.answer(req, res, this.received.length);
      });
    });
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await new Promise<void>((ready) => receiver.server.listen(0, '127.0.0.1', ready));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/approvals`;
  }

  /** The bodies received, parsed. */
  notices(): any[] {
    return this.received.map((notice) => JSON.parse(notice.body));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}
