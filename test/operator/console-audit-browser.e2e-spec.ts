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
 * chain intact, the timeline, and that call's story.
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

    // One call's story, from its outcome's link: decision, the operator's ask and yes, the run.
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
      ['outcome', 'tool', expect.stringMatching(/^ok \(/), ''],
    ]);
    await page.screenshot({ path: `${SCREENSHOTS}/console-audit-story.png`, fullPage: true });
  });
});
