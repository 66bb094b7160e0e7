import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { verifyWebhookSignature } from '../../src/index.js';
import { ADAPTERS, type HttpTestApp } from '../support/http-app.js';
import { until } from '../support/until.js';
import {
  WEBHOOK_SECRET,
  bootWebhookApp,
  callTransfer,
  deskOf,
  notifierOf,
  pathOf,
  resultText,
  runs,
  sdkClient,
  submit,
} from './webhook-app.js';
import { WebhookReceiver } from './webhook-receiver.js';

/*
 * The approvals webhook end to end: an official SDK client calls a tool the
 * policy sends to an operator; a real HTTP receiver gets the signed notice;
 * its links, opened on the app, decide the call (or are refused).
 */

const denial = (detail: string) => ({
  error: 'authorization_required',
  tool: 'transfer',
  decision: 'ask',
  detail,
});

describe.each(ADAPTERS)('the approvals webhook on %s', (adapter) => {
  let receiver: WebhookReceiver;
  let app: HttpTestApp;
  let client: Client;

  beforeEach(async () => {
    runs.length = 0;
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    await client?.close();
    await app?.close();
    await receiver.close();
  });

  async function boot(webhook: { linkTtlMs?: number } = {}, limits?: { maxRequestStates: number }) {
    app = await bootWebhookApp(
      { url: receiver.url, ...webhook },
      adapter,
      limits ? { limits } : {},
    );
    client = await sdkClient(app);
  }

  /** Starts a call and resolves with its notice once the receiver has it. */
  async function pendingCall(args: object = {}) {
    const call = callTransfer(client, args);
    // Observed, so a refusal while the test is still working does not go unhandled.
    call.catch(() => undefined);
    await until(() => receiver.received.length === 1, 'the notice');
    return { call, notice: receiver.notices()[0] };
  }

  it('the webhook announces a pending operator ask, signed', async () => {
    await boot();
    const before = Date.now();
    const { call, notice } = await pendingCall({ password: 'hunter2' });
    const [received] = receiver.received;
    expect(received!.headers['content-type']).toBe('application/json');
    expect(
      verifyWebhookSignature({
        secret: WEBHOOK_SECRET,
        header: received!.headers['warden-signature'],
        body: received!.body,
      }),
    ).toBe(true);
    expect(
      verifyWebhookSignature({
        secret: 'another secret entirely',
        header: received!.headers['warden-signature'],
        body: received!.body,
      }),
    ).toBe(false);
    const [ask] = (await deskOf(app.app).pending()).asks;
    expect(notice).toEqual({
      type: 'approval.pending',
      id: ask!.id,
      tool: 'transfer',
      prompt: 'Transfer 500 EUR to <Mallory>?',
      caller: ask!.caller,
      preview: ask!.preview,
      createdAt: new Date(ask!.createdAt).toISOString(),
      expiresAt: new Date(ask!.expiresAt).toISOString(),
      approveUrl: expect.stringMatching(
        /^https:\/\/warden\.example\.test\/approvals\/link\/[\w-]+\.[\w-]+$/,
      ),
      denyUrl: expect.stringMatching(
        /^https:\/\/warden\.example\.test\/approvals\/link\/[\w-]+\.[\w-]+$/,
      ),
      linksExpireAt: expect.any(String),
    });
    expect(notice.approveUrl).not.toBe(notice.denyUrl);
    expect(received!.body).not.toContain('hunter2');
    expect(notice.preview).toContain('500');
    // A link lives 10 minutes by default, but never past the ask.
    expect(Date.parse(notice.linksExpireAt)).toBe(ask!.expiresAt);
    expect(ask!.createdAt).toBeGreaterThanOrEqual(before);
    expect(runs).toEqual([]);
    // Done: the call ends on an operator's decision.
    expect((await submit(app, notice.approveUrl)).status).toBe(200);
    await call;
  });

  it('an approve link releases the call once', async () => {
    await boot();
    const { call, notice } = await pendingCall();
    const response = await submit(app, notice.approveUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Approved');
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(resultText(result)).toBe('transferred 500');
    expect(runs).toHaveLength(1);
    // The other link of the pair has nothing left to decide.
    expect((await submit(app, notice.denyUrl, { reason: 'too late' })).status).toBe(404);
    expect(runs).toHaveLength(1);
  });

  it('a deny link denies with the reason', async () => {
    await boot();
    const { call, notice } = await pendingCall();
    const response = await submit(app, notice.denyUrl, { reason: 'not <today>' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Denied');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(JSON.parse(resultText(result))).toEqual(denial('operator denied: not <today>'));
    expect(runs).toEqual([]);
  });

  it('a deny link without a reason asks for one and stays usable', async () => {
    await boot();
    const { call, notice } = await pendingCall();
    const refused = await submit(app, notice.denyUrl, { reason: '   ' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('A reason is required');
    expect((await deskOf(app.app).get(notice.id))?.decision).toBeUndefined();
    expect((await submit(app, notice.denyUrl, { reason: 'after all, no' })).status).toBe(200);
    expect(JSON.parse(resultText(await call))).toEqual(denial('operator denied: after all, no'));
  });

  it('a replayed webhook link is refused', async () => {
    await boot();
    const { call, notice } = await pendingCall();
    // The desk is watched: a second decision would show as a second event.
    const decided: string[] = [];
    const watching = deskOf(app.app).events$.subscribe((event) => {
      if (event.type === 'decided') decided.push(event.ask.id);
    });
    try {
      expect((await submit(app, notice.approveUrl)).status).toBe(200);
      const replay = await submit(app, notice.approveUrl);
      expect(replay.status).toBe(409);
      expect(await replay.text()).toContain('already used');
      expect(resultText(await call)).toBe('transferred 500');
      // Replayed again once the call ended: still a replay, still nothing done.
      expect((await submit(app, notice.approveUrl)).status).toBe(409);
      expect(runs).toHaveLength(1);
      expect(decided).toEqual([notice.id]);
    } finally {
      watching.unsubscribe();
    }
  });

  it('an expired webhook link is refused', async () => {
    await boot({ linkTtlMs: 50 });
    const { call, notice } = await pendingCall();
    const exp = Date.parse(notice.linksExpireAt);
    expect(exp).toBeLessThan(Date.parse(notice.expiresAt));
    await until(() => Date.now() > exp, 'the links to expire', 10_000_000);
    const response = await submit(app, notice.approveUrl);
    expect(response.status).toBe(410);
    expect((await app.fetch(pathOf(notice.denyUrl))).status).toBe(410);
    const record = await deskOf(app.app).get(notice.id);
    expect(record?.decision).toBeUndefined();
    expect(runs).toEqual([]);
    // The ask still waits for the console (or the API); decided there, the call ends.
    const decidedByApi = await deskOf(app.app).decide(
      notice.id,
      { subject: 'ops-bob', scopes: ['mcp:approve'] },
      { approve: false, reason: 'link expired', via: 'api' },
    );
    expect(decidedByApi.ok).toBe(true);
    expect(JSON.parse(resultText(await call))).toEqual(denial('operator denied: link expired'));
  });

  it('a tampered link is refused', async () => {
    await boot();
    const { call, notice } = await pendingCall();
    const token = pathOf(notice.denyUrl).split('/').pop()!;
    const [payload, mac] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    // The deny link's payload turned into an approval, its signature kept.
    const approving = Buffer.from(JSON.stringify({ ...claims, d: 'approve' })).toString(
      'base64url',
    );
    const base = pathOf(notice.denyUrl).slice(0, -token.length);
    const flipped = mac.startsWith('A') ? 'B' + mac.slice(1) : 'A' + mac.slice(1);
    for (const forged of [
      `${approving}.${mac}`,
      `${payload}.${flipped}`,
      'garbage',
      `${payload}.`,
    ]) {
      const response = await app.fetch(base + forged, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect([forged, response.status]).toEqual([forged, 400]);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
    expect((await deskOf(app.app).get(notice.id))?.decision).toBeUndefined();
    expect(runs).toEqual([]);
    expect((await submit(app, notice.approveUrl)).status).toBe(200);
    await call;
  });

  it('a GET never decides', async () => {
    await boot();
    const { call, notice } = await pendingCall();
    for (const link of [notice.approveUrl, notice.denyUrl, notice.approveUrl]) {
      const page = await app.fetch(pathOf(link));
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const html = await page.text();
      expect(html).toContain('<form method="post">');
      // The prompt is shown escaped: the caller's tool arguments never become markup.
      expect(html).toContain('Transfer 500 EUR to &lt;Mallory&gt;?');
      expect(html).not.toContain('<Mallory>');
    }
    const denyPage = await (await app.fetch(pathOf(notice.denyUrl))).text();
    expect(denyPage).toContain('name="reason"');
    expect((await app.fetch(pathOf(notice.approveUrl), { method: 'HEAD' })).status).toBe(200);
    expect((await deskOf(app.app).get(notice.id))?.decision).toBeUndefined();
    expect(runs).toEqual([]);
    // The links still work once: the GETs consumed nothing.
    expect((await submit(app, notice.approveUrl)).status).toBe(200);
    expect(resultText(await call)).toBe('transferred 500');
  });

  it('a failing receiver does not fail the call', async () => {
    receiver.answer = (_req, res) => res.writeHead(500).end();
    await boot();
    const call = callTransfer(client);
    call.catch(() => undefined);
    // Every attempt fails; the call waits on, untouched.
    await until(
      () => receiver.received.length === 3 && notifierOf(app.app).backlog === 0,
      'the retries to give up',
    );
    const [ask] = (await deskOf(app.app).pending()).asks;
    expect(ask?.tool).toBe('transfer');
    // The notice never got through, but an operator decides in the console (here: the desk).
    const decided = await deskOf(app.app).decide(
      ask!.id,
      { subject: 'ops-bob', scopes: ['mcp:approve'] },
      { approve: true, via: 'api' },
    );
    expect(decided.ok).toBe(true);
    expect(resultText(await call)).toBe('transferred 500');
    expect(runs).toHaveLength(1);
  });

  it('a full store of used links answers 503 with Retry-After, never 500, and decides nothing', async () => {
    // The server's single-use ids (as 100 000 would by default): each notice takes one, and each
    // used link one, so the second call's link finds the store full.
    await boot({}, { maxRequestStates: 3 });
    const first = await pendingCall();
    expect((await submit(app, first.notice.approveUrl)).status).toBe(200);
    await first.call;
    receiver.received.length = 0;
    const second = await pendingCall({ amount: 7 });
    const refused = await submit(app, second.notice.approveUrl);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.text()).toContain('Nothing was decided');
    expect((await deskOf(app.app).get(second.notice.askId))?.decision).toBeUndefined();
    expect(runs).toHaveLength(1);
  });

  it('records the link, not a person, as the deciding operator', async () => {
    await boot();
    const { call, notice } = await pendingCall();
    const decided: { operator: string; via: string }[] = [];
    const watching = deskOf(app.app).events$.subscribe((event) => {
      if (event.type === 'decided') decided.push(event.ask.decision!);
    });
    try {
      expect((await submit(app, notice.approveUrl)).status).toBe(200);
      await call;
      await until(() => decided.length === 1, 'the decided event');
      expect(decided[0]).toEqual(
        expect.objectContaining({
          operator: expect.stringMatching(/^webhook-link:[\w-]{22}$/),
          via: 'webhook-link',
        }),
      );
    } finally {
      watching.unsubscribe();
    }
  });
});
