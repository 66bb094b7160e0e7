import fc from 'fast-check';
import { PassThrough } from 'node:stream';
import { McpStdioTransport } from '../../src/index.js';
import { createMcpApp, type McpTestApp } from '../support/mcp-test-app.js';
import { nearMiss, validRequest } from '../support/reliability-fuzz.js';
import { deferred } from '../support/deferred.js';
import { within } from '../support/reliability-support.js';
import {
  counted,
  coverage,
  CHECK_COVERAGE,
  runs,
  FuzzTools,
  APP_OPTIONS,
  Msg,
  expectWellFormed,
  isResponseMessage,
  useFuzzSuite,
} from './fuzz-app.js';

useFuzzSuite();

describe('fuzz: stdio transport', () => {
  let t: McpTestApp;
  let connection = 0;

  beforeAll(async () => {
    t = await createMcpApp(APP_OPTIONS, [FuzzTools]);
  });
  afterAll(() => t?.close());

  const MAX_LINE = 512;
  const encoder = new TextEncoder();

  type Segment = { kind: 'bytes' | 'huge'; b: Uint8Array } | { kind: 'valid'; m: Msg };
  const bytesOf = (b: Uint8Array): Segment => ({ kind: 'bytes', b });

  /** One segment of stdin; every segment ends with a newline. */
  const segment: fc.Arbitrary<Segment> = fc.oneof(
    // Arbitrary bytes (newlines inside split them into more lines).
    { weight: 3, arbitrary: fc.uint8Array({ maxLength: 120 }).map(bytesOf) },
    // A mutated valid line: a byte flipped, truncated, or a near-miss envelope.
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          validRequest(['ping', 'tools/list', 'tools/call', 'resources/read']),
          fc.nat(),
          fc.nat(255),
        )
        .map(([message, at, byte]) => {
          const line = encoder.encode(JSON.stringify(message));
          const mutated = Uint8Array.from(line);
          mutated[at % line.length] = byte;
          return bytesOf(at % 2 ? mutated : line.subarray(0, at % line.length));
        }),
    },
    {
      weight: 2,
      arbitrary: nearMiss.map((m) => bytesOf(encoder.encode(JSON.stringify(m)))),
    },
    // A line longer than maxLineBytes (valid JSON, or not).
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: MAX_LINE + 1, max: 3 * MAX_LINE }), fc.boolean())
        .map(([size, json]) => {
          const text = json
            ? JSON.stringify({
                jsonrpc: '2.0',
                id: 'huge',
                method: 'ping',
                params: { pad: 'x'.repeat(size) },
              })
            : 'y'.repeat(size);
          return { kind: 'huge' as const, b: encoder.encode(text) };
        }),
    },
    // A valid request that must be answered exactly once.
    {
      weight: 2,
      arbitrary: validRequest(
        ['ping', 'tools/list', 'tools/call', 'resources/read', 'prompts/get'],
        fc.constant('v'),
      ).map((m) => ({ kind: 'valid' as const, m })),
    },
  );

  it('arbitrary bytes, mutated lines and oversized lines: every output line is valid JSON-RPC; valid requests answered once; ping answers afterwards', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 10 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 6 }),
        counted('stdio', async (segments, chunkSizes) => {
          const connId = `stdio-${connection++}`;
          const input = new PassThrough();
          const output = new PassThrough();
          const lines: string[] = [];
          let pending = '';
          const pingAnswered = deferred<void>();
          output.setEncoding('utf8');
          output.on('data', (chunk: string) => {
            pending += chunk;
            let newline: number;
            while ((newline = pending.indexOf('\n')) !== -1) {
              const line = pending.slice(0, newline);
              pending = pending.slice(newline + 1);
              lines.push(line);
              if (line.includes('"id":"final-ping"')) pingAnswered.resolve();
            }
          });
          const transport = new McpStdioTransport(t.server, {
            input,
            output,
            connId,
            maxLineBytes: MAX_LINE,
          });
          const served = transport.run();

          // Valid requests get unique ids, so each answer can be counted.
          const valid: { id: string; fits: boolean }[] = [];
          const parts: Uint8Array[] = [];
          for (const s of segments) {
            if (s.kind === 'valid') {
              const id = `v-${valid.length}`;
              const line = encoder.encode(JSON.stringify({ ...s.m, id }));
              valid.push({ id, fits: line.length <= MAX_LINE });
              parts.push(line);
            } else parts.push(s.b);
            parts.push(encoder.encode('\n'));
          }
          const bytes = Buffer.concat(parts);
          // Lines over the bound (whatever segment they came from) are refused, never parsed.
          const lineLengths = bytes
            .toString('latin1')
            .split('\n')
            .map((line) => line.length);
          const huge = lineLengths.filter((length) => length > MAX_LINE).length;
          // Written in chunks of arbitrary sizes: lines are split anywhere.
          for (let at = 0, i = 0; at < bytes.length; i++) {
            const size = chunkSizes[i % chunkSizes.length];
            input.write(bytes.subarray(at, at + size));
            at += size;
          }
          input.write('{"jsonrpc":"2.0","id":"final-ping","method":"ping"}\n');
          await within(pingAnswered.promise, 10_000, 'ping after the fuzzed input');
          input.end();
          await served;

          const parsed = lines.map((line) => JSON.parse(line) as Msg);
          for (const message of parsed) expectWellFormed(message, bytes.toString('latin1'));
          for (const { id, fits } of valid) {
            const answers = parsed.filter((m) => isResponseMessage(m) && m.id === id);
            expect([id, answers.length]).toEqual([id, fits ? 1 : 0]);
          }
          const tooLarge = parsed.filter(
            (m) => m.id === null && m.error?.code === -32600 && /too large/.test(m.error.message),
          );
          expect(tooLarge).toHaveLength(huge);
          coverage.hugeLines += huge;
          expect(parsed.filter((m) => m.id === 'final-ping')).toEqual([
            { jsonrpc: '2.0', id: 'final-ping', result: {} },
          ]);
        }),
      ),
    );
    expect(runs.denied).toBe(0);
    if (CHECK_COVERAGE) expect(coverage.hugeLines).toBeGreaterThan(0);
  });
});
