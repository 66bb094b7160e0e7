import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { McpAuditSinks } from '../../src/index.js';
import { describeWithBrowser } from '../support/browser.js';
import { startTestIssuer, type TestIssuer } from '../support/oidc/index.js';
import {
  bootConsoleApp,
  consoleClient,
  consolePorts,
  ISSUER_SCOPES,
  type ConsoleApp,
} from './console-app.js';
import { operator } from './operator-app.js';

/*
 * The console's Audit page in a real browser (headless Chromium), on an app that keeps signed
 * audit records (docs/audit.md): after an operator approved a waiting call, the page shows the
 * chain intact, the timeline, and that call's story; the timeline filtered by caller, paged.
 */

const SCREENSHOTS = '.tmp/screenshots';

describeWithBrowser('the operator console’s Audit page in Chromium', (executablePath) => {
  let issuer: TestIssuer;
  let t: ConsoleApp;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const [port] = await consolePorts(1);
    issuer = await startTestIssuer({
      scopes: ISSUER_SCOPES,
      clients: [consoleClient([port])],
      loginForm: true,
    });
    t = await bootConsoleApp(issuer, port!, 'express', {
      audit: {
        sinks: [McpAuditSinks.jsonl({ dir: mkdtempSync(join(tmpdir(), 'console-audit-')) })],
        signing: { privateKey: generateKeyPairSync('ed25519').privateKey, everyRecords: 3 },
      },
    });
    browser = await chromium.launch({
      executablePath,
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
    });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(`${t.console}/audit`);
    // Signed out, the page sends the operator to sign in, and back.
    await page.getByLabel('Account').fill('olivia');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Chain' }).waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await issuer?.close();
  });

  it("shows the chain's verified state, the timeline, and one call's story", async () => {
    // A call that waits for an operator, approved through the desk.
    const client = await t.caller('alice');
    const asked = t.nextAsk();
    const call = client.callTool({ name: 'purge_notes', arguments: { scope: 'audit' } });
    const ask = await asked;
    await t.desk.decide(ask.id, operator(issuer, 'olivia'), { approve: true, via: 'api' });
    expect((await call).content).toEqual([{ type: 'text', text: 'purged audit' }]);

    await page.goto(`${t.console}/audit`);
    const verified = page.locator('#chain-verified');
    expect(await verified.getAttribute('data-intact')).toBe('yes');
    expect((await verified.textContent())?.trim()).toMatch(
      /^intact: the last \d+ records chain, ([1-9]\d*) of \1 checkpoints verified$/,
    );
    // The timeline, filtered to the tool: the ask, the operator's steps and the run.
    await page.getByLabel('Tool or method').fill('purge_notes');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('matching records, newest first').waitFor();
    const results = await page.locator('tbody tr td:nth-child(7)').allTextContents();
    expect(results).toEqual(
      expect.arrayContaining(['ask', 'allow', expect.stringMatching(/^ok \(/)]),
    );
    await page.screenshot({ path: `${SCREENSHOTS}/console-audit.png`, fullPage: true });

    // One call's story, from its outcome's link: decision, the operator's ask, the yes as the
    // desk took it and as the call took it, the run.
    await page
      .locator('tr[data-kind="outcome"]')
      .first()
      .getByRole('link', { name: 'story' })
      .click();
    await page.getByRole('heading', { name: 'One call' }).waitFor();
    const cells = await page
      .locator('.story tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [3, 4, 7, 8].map((i) => row.children[i - 1]!.textContent!.trim())),
      );
    expect(cells).toEqual([
      ['decision', 'tool', 'ask', ''],
      ['decision', 'operator', 'ask', ''],
      ['decision', 'operator', 'allow', 'olivia'],
      ['decision', 'operator', 'allow', 'olivia'],
      ['outcome', 'tool', expect.stringMatching(/^ok \(/), ''],
    ]);
    await page.screenshot({ path: `${SCREENSHOTS}/console-audit-story.png`, fullPage: true });
  });

  it('filters the timeline by caller, and pages through it', async () => {
    // Each listing is a read seam decision with its caller: more of bob's than one page holds.
    const [alice, bob] = [await t.caller('alice'), await t.caller('bob')];
    for (let i = 0; i < 2; i++) await alice.listTools();
    for (let i = 0; i < 57; i++) await bob.listTools();

    await page.goto(`${t.console}/audit`);
    await page.getByLabel('Caller').fill('bob');
    await page.getByLabel('Tool or method').fill('');
    await page.getByRole('button', { name: 'Filter' }).click();
    const caption = page.getByText('matching records, newest first');
    await caption.waitFor();
    const total = Number(/^(\d+) matching/.exec((await caption.textContent())!.trim())![1]);
    expect(total).toBeGreaterThanOrEqual(57);
    expect(total).toBeLessThanOrEqual(100);
    /* This page's rows: their number in the chain and their caller. */
    const rows = () =>
      page
        .locator('.table tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [Number(tr.children[0]!.textContent), tr.children[4]!.textContent!]),
        );
    const first = await rows();
    expect(first).toHaveLength(50);
    expect(await page.locator('#page').textContent()).toBe('Page 1 of 2');
    await page.screenshot({ path: `${SCREENSHOTS}/console-audit-caller.png`, fullPage: true });

    await page.locator('#next').click();
    await page.locator('#page', { hasText: 'Page 2 of 2' }).waitFor();
    const second = await rows();
    expect(second).toHaveLength(total - 50);
    expect(await page.locator('#prev').count()).toBe(1);
    expect(await page.locator('#next').count()).toBe(0);
    // Only bob's, newest first, each once across the two pages.
    const all = [...first, ...second];
    expect(new Set(all.map(([, caller]) => caller))).toEqual(new Set(['bob']));
    const numbers = all.map(([seq]) => seq as number);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(new Set(numbers).size).toBe(total);
    // The filter rides the pager's links: page 2 still asks for bob.
    expect(new URL(page.url()).searchParams.get('principal')).toBe('bob');
  });
});
