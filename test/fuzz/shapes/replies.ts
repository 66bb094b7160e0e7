import { jsonRpcProblems, leaksIn } from '../../support/reliability-support.js';
import { serialize } from './hostile-values.js';
import { expectedRefusals, figuresOf, type ShapeLimits } from './shape-model.js';
import { hostileRuns } from './hostile-tools.js';

/**
 * The invariants every message the server sends must hold (expectWellFormed,
 * with the input serialized iteratively: it may be 100 000 levels deep).
 */
export function wellFormed(message: unknown, input: unknown): void {
  expect(jsonRpcProblems(message)).toEqual([]);
  expect(leaksIn(JSON.stringify(message), serialize(input))).toEqual([]);
}

/** A tools/call drawn by hostileCall. */
export type ToolCall = { id: string | number; name: string; arguments: Record<string, unknown> };

/**
 * The reply to a tools/call with hostile arguments, against the reference
 * model: past a bound, the isError "Invalid arguments for tool <name>: …"
 * naming a bound the arguments crossed, whatever the tool (denied, unknown),
 * and no tool runs; within every bound, the tool's own answer. Never -32603.
 */
export function expectToolReply(
  reply: unknown,
  call: ToolCall,
  limits: ShapeLimits,
  before: typeof hostileRuns,
) {
  expect(reply).not.toBeNull();
  expect(jsonRpcProblems(reply)).toEqual([]);
  const r = reply as Record<string, any>;
  expect(r.id).toBe(call.id);
  const figures = figuresOf(call.arguments);
  const refusals = expectedRefusals(figures, limits);
  const what = `${call.name} ${JSON.stringify(figures)}`;
  if (refusals.length > 0) {
    // Past a bound the call is refused before anything else (the seam, the tool lookup) sees
    // it: the same isError result for every tool name, denied or unknown alike.
    expect([what, r.error]).toEqual([what, undefined]);
    const result = r.result as Record<string, any>;
    const text: string = result.content?.[0]?.text ?? '';
    expect([what, result.isError]).toEqual([what, true]);
    const prefix = `Invalid arguments for tool ${call.name}: `;
    expect([what, text.startsWith(prefix)]).toEqual([what, true]);
    expect([what, refusals]).toEqual([what, expect.arrayContaining([text.slice(prefix.length)])]);
    expect(hostileRuns).toEqual(before);
    return;
  }
  if (call.name === 'no_such_tool') {
    // An unknown tool is reported once the seam allowed the call.
    expect([what, r.error?.code]).toEqual([what, -32602]);
    return;
  }
  expect([what, r.error]).toEqual([what, undefined]);
  const result = r.result as Record<string, any>;
  const text: string = result.content?.[0]?.text ?? '';
  if (call.name === 'denied_counter') {
    // Within the bounds, the seam's deny comes before any validation of the arguments.
    expect(result.isError).toBe(true);
    expect(text.startsWith('Invalid arguments')).toBe(false);
    return;
  }
  const args = call.arguments;
  const textOk = typeof args.text === 'string';
  switch (call.name) {
    case 'any_object':
      expect([what, result]).toEqual([what, { content: [{ type: 'text', text: 'ran' }] }]);
      break;
    case 'echo':
      if (textOk) expect([what, text]).toEqual([what, args.text]);
      else
        expect([what, text]).toEqual([
          what,
          expect.stringMatching(/^Invalid arguments for tool echo: /),
        ]);
      break;
    case 'dto_echo': {
      const declared = Object.keys(args).every((key) => key === 'text' || key === 'note');
      const noteOk = args.note === undefined || typeof args.note === 'string';
      if (textOk && declared && noteOk) expect([what, text]).toEqual([what, args.text]);
      else {
        expect([what, result.isError, text]).toEqual([
          what,
          true,
          expect.stringMatching(/^Invalid arguments for tool dto_echo: /),
        ]);
      }
      break;
    }
    default:
      // explode: its failure is an isError result that says only that it failed.
      expect([what, result.isError]).toEqual([what, true]);
  }
}
