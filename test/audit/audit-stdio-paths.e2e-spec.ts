import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { resolve } from 'node:path';
import { approvalAt, logDir, recordsOf, verifySource } from './audit-app.js';

/*
 * Every path a call can take leaves its records over real stdio, in both eras, with the official
 * SDK v2 client against a child process (test/fixtures/audit/audit-stdio-app.mjs on the built
 * framework): the decision, the caller's approval step linked to it, and for a call that ran,
 * its outcome. The records are read back from the child's JSON Lines chain once it has exited.
 */

const APP = resolve(process.cwd(), 'test/fixtures/audit/audit-stdio-app.mjs');
const MODERN = '2026-07-28';
const ASK = ['decision', 'tool', 'ask', 'Run guarded?'];

type Answer = { action: 'accept' | 'decline'; content?: Record<string, boolean> };

describe.each(['legacy', 'modern'] as const)(
  'audit records of every path, %s era over stdio',
  (era) => {
    let dir: string;
    let client: Client;
    let answer: () => Promise<Answer>;
    const expected: (string | undefined)[][] = [];

    beforeAll(async () => {
      dir = logDir();
      client = new Client(
        { name: 'audit-stdio-paths', version: '1.0.0' },
        {
          capabilities: { elicitation: {} },
          ...(era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN } } } : {}),
        },
      );
      client.setRequestHandler('elicitation/create', () => answer());
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [APP],
          env: { AUDIT_DIR: dir },
          stderr: 'ignore',
        }),
      );
      expect(client.getProtocolEra()).toBe(era);
    });
    afterAll(() => client?.close());

    const call = (name: string, options?: object) =>
      client.callTool({ name, arguments: {} }, options);
    /* The modern era asks in a result and the client retries: the retry is decided again. */
    const asked = era === 'modern' ? [ASK] : [];

    it('drives every path', async () => {
      expect(await call('fine')).toMatchObject({ content: [{ text: 'fine ' }] });
      expected.push(['decision', 'tool', 'allow'], ['outcome', 'tool', 'ok']);

      expect(await call('forbidden')).toMatchObject({ isError: true });
      expected.push(['decision', 'tool', 'deny', 'not here']);

      answer = async () => ({ action: 'accept', content: { approve: true } });
      expect(await call('guarded')).toMatchObject({ content: [{ text: 'guarded ran' }] });
      expected.push(
        ASK,
        ...asked,
        ['decision', 'elicitation', 'allow', 'user approved'],
        ['outcome', 'tool', 'ok'],
      );

      answer = async () => ({ action: 'decline' });
      expect(await call('guarded')).toMatchObject({ isError: true });
      expected.push(ASK, ...asked, ['decision', 'elicitation', 'deny', 'user declined']);

      expect(await call('explodes')).toMatchObject({ isError: true });
      expected.push(['decision', 'tool', 'allow'], ['outcome', 'tool', 'threw']);
      expect(await call('refuses')).toMatchObject({ isError: true });
      expected.push(['decision', 'tool', 'allow'], ['outcome', 'tool', 'isError']);

      expect(await call('waits')).toMatchObject({ isError: true });
      expected.push(['decision', 'tool', 'allow'], ['outcome', 'tool', 'timeout']);

      // An operator must approve, and none is in reach over stdio. The handshake era parks the
      // call until the ask times out; the modern era, to a client without URL-mode elicitation,
      // answers at once that the approval is pending (a retry would find it).
      answer = async () => ({ action: 'accept' });
      const purge = ['decision', 'tool', 'ask', 'Purge?'];
      const operatorAsk = ['decision', 'operator', 'ask', 'Purge?'];
      if (era === 'legacy') {
        expect(await call('purge')).toMatchObject({
          isError: true,
          structuredContent: { detail: 'approval timed out' },
        });
        expected.push(purge, operatorAsk, ['decision', 'operator', 'deny', 'approval timed out']);
      } else {
        expect(await call('purge')).toMatchObject({
          isError: true,
          structuredContent: { detail: 'approval pending' },
        });
        expected.push(purge, operatorAsk, ['decision', 'operator', 'ask', 'approval pending']);
      }
      // The app's own operator approves `release` and denies `destroy` through the operator
      // desk. The handshake era waits for the decision; the modern era answers that it is
      // pending, and the retry finds it decided. The desk records the decision as it takes it
      // (`desk`), and the call that takes it records it again (`decided`).
      const operator = (tool: string, prompt: string, desk: string[], decided: string[]) => {
        const ask = ['decision', 'tool', 'ask', prompt];
        const pending = ['decision', 'operator', 'ask', prompt];
        return era === 'legacy'
          ? [ask, pending, desk, decided]
          : [ask, pending, ['decision', 'operator', 'ask', 'approval pending'], desk, ask, decided];
      };
      const settle = async (name: string) => {
        const first = await call(name);
        // The modern era's first answer says the approval is pending: the retry gets the verdict.
        return era === 'modern' ? call(name) : first;
      };
      expect(await settle('release')).toMatchObject({ content: [{ text: 'released' }] });
      expected.push(
        ...operator(
          'release',
          'Release?',
          ['decision', 'operator', 'allow', 'operator approved via api'],
          ['decision', 'operator', 'allow', 'operator approved'],
        ),
        ['outcome', 'tool', 'ok'],
      );
      expect(await settle('destroy')).toMatchObject({
        isError: true,
        structuredContent: { detail: 'operator denied: not today' },
      });
      expected.push(
        ...operator(
          'destroy',
          'Destroy?',
          ['decision', 'operator', 'deny', 'operator denied via api: not today'],
          ['decision', 'operator', 'deny', 'operator denied: not today'],
        ),
      );

      if (era === 'legacy') {
        // The caller never answers: the server's elicitationTimeoutMs (3 s) ends the ask.
        answer = () => new Promise(() => undefined);
        expect(await call('guarded')).toMatchObject({ isError: true });
        expected.push(ASK, ['decision', 'elicitation', 'deny', 'elicitation timed out']);
      } else {
        // The modern era holds nothing between rounds: the ask's time (elicitationTimeoutMs,
        // 3 s) is sealed in its state, and an approval that comes back after it is refused.
        answer = () => approvalAt(Date.now() + 3_000);
        expect(await call('guarded')).toMatchObject({
          isError: true,
          structuredContent: { detail: 'approval expired' },
        });
        expected.push(ASK, ASK, ['decision', 'elicitation', 'deny', 'approval expired']);
      }

      // Cancelled once the tool says it started: the decision was kept before it ran.
      const cancel = new AbortController();
      await expect(
        call('waits', { signal: cancel.signal, onprogress: () => cancel.abort() }),
      ).rejects.toThrow();
      expected.push(['decision', 'tool', 'allow'], ['outcome', 'tool', 'cancelled']);
    });

    it('the chain holds each path’s records, linked to their decisions, and verifies', async () => {
      // Closing stdin ends the server: it drains its sink before it exits.
      await client.close();
      const records = (await recordsOf(dir)).filter((record) => record.seam !== 'read');
      expect(
        records.map((r) =>
          [r.kind, r.seam, r.kind === 'outcome' ? r.outcome : r.decision, r.detail].filter(
            (part) => part !== undefined,
          ),
        ),
      ).toEqual(expected);
      // Every approval step and outcome names an earlier tool decision of the same tool.
      for (const [index, record] of records.entries()) {
        if (record.kind === 'decision' && record.seam === 'tool') continue;
        expect(record.of).toEqual(expect.any(String));
        const decision = records.slice(0, index).find((r) => r.id === record.of);
        expect(decision).toMatchObject({ kind: 'decision', seam: 'tool', name: record.name });
      }
      expect(records.every((r) => r.transport === 'stdio' && r.era === era)).toBe(true);
      // Who decided, on each operator verdict.
      const verdicts = records.filter((r) => r.seam === 'operator' && r.decision !== 'ask');
      expect(verdicts.map((r) => [r.name, r.decision, r.operator])).toEqual(
        expect.arrayContaining([
          ['release', 'allow', 'ops-oncall'],
          ['destroy', 'deny', 'ops-oncall'],
        ]),
      );
      expect(await verifySource(dir)).toEqual([expect.objectContaining({ breaks: [] })]);
    });
  },
);
