import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { MCP_APPROVAL_STORE, type McpApprovalStore } from '../../src/index.js';
import { describeWithBrowser } from '../support/browser.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  bootConsoleApp,
  consoleClient,
  consolePorts,
  ISSUER_SCOPES,
  type ConsoleApp,
} from './console-app.js';
import { runs } from './operator-app.js';

/*
 * The operator console in a real browser (headless Chromium): operators sign
 * in at oidc-provider's login form, watch asks arrive while an SDK client's
 * tools/call waits, and decide them; the caller's own session cannot.
 */

const SCREENSHOTS = '.tmp/screenshots';
/**
 * How long a wait for the page to change may take. Every change is pushed to the page (no
 * poll), so a missing push fails at this bound; it is sized for a machine several times slower
 * than a developer's, not for the latency goal.
 */
const UI_WAIT_MS = 5_000;

/* The page's document, as code run in the browser sees it (the test's own types have no DOM). */
interface PageDocument {
  body: { dataset: Record<string, string | undefined> };
  documentElement: { scrollWidth: number };
}
// Used inline in `page.evaluate` (the function is sent to the browser without its closure).
type InPage = { document: PageDocument };

describeWithBrowser('operator console in Chromium', (executablePath) => {
  let issuer: TestIssuer;
  let t: ConsoleApp;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const [port] = await consolePorts(1);
    issuer = await startTestIssuer({
      scopes: ISSUER_SCOPES,
      clients: [consoleClient([port])],
      loginForm: true,
    });
    t = await bootConsoleApp(issuer, port);
    browser = await chromium.launch({
      executablePath,
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await issuer?.close();
  });
  beforeEach(() => {
    runs.purge = 0;
  });

  /** Screenshots every open page when `body` fails, then fails. */
  async function recorded(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      let n = 0;
      for (const context of contexts) {
        for (const page of context.pages()) {
          await page
            .screenshot({ path: `${SCREENSHOTS}/failed-${name}-${n++}.png`, fullPage: true })
            .catch(() => undefined);
        }
      }
      throw error;
    }
  }

  /** A fresh browser profile signed in as `account` through the issuer's login form. */
  async function operatorPage(
    account: string,
    viewport = { width: 1280, height: 900 },
  ): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(t.console);
    await page.getByLabel('Account').fill(account);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await page.getByText(`Signed in as ${account}`).waitFor();
    return page;
  }

  /** A call of purge_notes by `caller` that waits for an operator; `tag` marks its card. */
  async function waitingCall(caller: string, tag: string) {
    const client = await t.caller(caller);
    const asked = t.nextAsk();
    const sent = performance.now();
    const result = client.callTool({ name: 'purge_notes', arguments: { scope: tag } });
    return { result, sent, ask: await asked };
  }

  const card = (page: Page, tag: string) => page.locator('li.ask', { hasText: tag });

  let olivia: Page;
  let bob: Page;

  it('an operator signs in at the issuer and sees a waiting call appear, pushed to the open page', () =>
    recorded('appear', async () => {
      olivia = await operatorPage('olivia');
      bob = await operatorPage('bob');
      const call = await waitingCall('alice', 'browser-approve');
      // The page has no poll: only the console's event stream can show the card without a reload.
      // How soon is printed; the 1 s goal is a latency, judged by the bench's console-push row
      // (a bound here would judge the machine). The wait is sized for a slow one.
      await card(olivia, 'browser-approve').waitFor({ state: 'visible', timeout: UI_WAIT_MS });
      const appeared = performance.now() - call.sent;
      process.stdout.write(`console: the ask appeared ${appeared.toFixed(0)} ms after the call\n`);
      const shown = card(olivia, 'browser-approve');
      await shown.getByText('purge_notes').waitFor();
      await shown.getByText('Purge every note?').waitFor();
      await shown.getByText('alice').waitFor();
      await shown.getByText('{"scope":"browser-approve"}').waitFor();
      expect(await shown.locator('.left').textContent()).toMatch(/^\d+:\d\d$/);
      // The live region is re-filled 50 ms after a change (so screen readers announce it again).
      await olivia
        .locator('#status', { hasText: 'New ask: purge_notes' })
        .waitFor({ timeout: UI_WAIT_MS });

      // Approving releases the call; the second operator's console sees the decision.
      await card(bob, 'browser-approve').waitFor({ timeout: UI_WAIT_MS });
      await shown.getByRole('button', { name: 'Approve' }).click();
      expect((await call.result).content).toEqual([
        { type: 'text', text: 'purged browser-approve' },
      ]);
      expect(runs.purge).toBe(1);
      await card(bob, 'browser-approve').waitFor({ state: 'detached', timeout: UI_WAIT_MS });
      await bob.getByText('was approved by olivia').waitFor({ timeout: UI_WAIT_MS });
      await card(olivia, 'browser-approve').waitFor({ state: 'detached', timeout: UI_WAIT_MS });
    }));

  it("the caller's own session cannot approve: the click and a forged POST are both refused", () =>
    recorded('own-call', async () => {
      const alice = await operatorPage('alice');
      const call = await waitingCall('alice', 'browser-own');
      const own = card(alice, 'browser-own');
      await own.waitFor({ timeout: UI_WAIT_MS });
      await own.getByRole('button', { name: 'Approve' }).click();
      await own.getByRole('alert').getByText('You made this call').waitFor({ timeout: UI_WAIT_MS });
      // Whatever the page sends with its own session, token and origin: the desk refuses.
      const forged = await alice.evaluate(async (id) => {
        const response = await fetch(`/approvals/asks/${id}/decision`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-csrf-token': (globalThis as unknown as InPage).document.body.dataset.csrf ?? '',
          },
          body: JSON.stringify({ approve: true }),
        });
        return { status: response.status, body: await response.json() };
      }, call.ask.id);
      expect(forged).toEqual({ status: 403, body: { ok: false, problem: 'own call' } });
      expect((await t.desk.get(call.ask.id))?.decision).toBeUndefined();
      expect(runs.purge).toBe(0);

      // Deny with a reason, in olivia's console: the reason is required, then reaches the client.
      const theirs = card(olivia, 'browser-own');
      await theirs.getByRole('button', { name: 'Deny' }).click();
      await theirs.getByText('Give a reason for denying.').waitFor();
      await theirs.getByLabel('Reason for denying').fill('the caller may not purge');
      await theirs.getByRole('button', { name: 'Deny' }).click();
      const result = await call.result;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({
        decision: 'ask',
        detail: 'operator denied: the caller may not purge',
      });
      await own.waitFor({ state: 'detached', timeout: UI_WAIT_MS });
    }));

  it('1,000 pending asks stay usable: 50 a page, a total, next and previous', () =>
    recorded('thousand', async () => {
      const store = t.app.get<McpApprovalStore>(MCP_APPROVAL_STORE);
      const now = Date.now();
      const ids: string[] = [];
      for (let i = 0; i < 1000; i++) {
        const id = randomBytes(16).toString('base64url');
        ids.push(id);
        const added = await store.add({
          id,
          tool: 'purge_notes',
          prompt: `Bulk ask ${String(i).padStart(4, '0')}`,
          caller: { subject: `caller-${i % 7}`, issuer: issuer.issuer, key: `caller-${i % 7}` },
          preview: `{"n":${i}}`,
          createdAt: now + i,
          expiresAt: now + 600_000,
        });
        expect(added).toBe(true);
      }
      try {
        const started = performance.now();
        await olivia.goto(t.console);
        await olivia.locator('#total').getByText('1000').waitFor();
        process.stdout.write(
          `console: the first page of 1,000 asks rendered in ${(performance.now() - started).toFixed(0)} ms\n`,
        );
        expect(await olivia.locator('li.ask').count()).toBe(50);
        await olivia.getByText('Bulk ask 0000').waitFor();
        await olivia.screenshot({ path: `${SCREENSHOTS}/console-pending.png` });

        await olivia.getByRole('link', { name: 'Next page' }).click();
        await olivia.getByText('Bulk ask 0050').waitFor();
        expect(await olivia.locator('li.ask').count()).toBe(50);
        expect(await olivia.getByText('Bulk ask 0000').count()).toBe(0);
        expect(await olivia.locator('#page-number').textContent()).toBe('2');
        await olivia.getByRole('link', { name: 'Previous page' }).click();
        await olivia.getByText('Bulk ask 0000').waitFor();
        expect(await olivia.locator('#page-number').textContent()).toBe('1');

        const phone = await operatorPage('bob', { width: 390, height: 844 });
        await phone.getByText('Bulk ask 0000').waitFor();
        // On a phone the buttons stay large enough to tap.
        const approve = await phone.getByRole('button', { name: 'Approve' }).first().boundingBox();
        expect(approve!.height).toBeGreaterThanOrEqual(44);
        const width = await phone.evaluate(
          () => (globalThis as unknown as InPage).document.documentElement.scrollWidth,
        );
        expect(width).toBeLessThanOrEqual(390);
        await phone.screenshot({ path: `${SCREENSHOTS}/console-phone.png` });
      } finally {
        await Promise.all(ids.map((id) => store.remove(id)));
      }
    }));
});
