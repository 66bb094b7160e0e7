import { execFileSync } from 'node:child_process';
import { processTieringBudget } from './tiering-budget.js';

describe('processTieringBudget', () => {
  const saved = process.env.NODE_OPTIONS;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved;
  });

  it("is V8's default for this Node when the process was not given one", () => {
    process.env.NODE_OPTIONS = '--no-warnings';
    // What this Node's V8 itself says its default is.
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    const declared =
      /--wasm-tiering-budget \(.*\n\s*type: int\s+default: --wasm-tiering-budget=(\d+)/.exec(
        options,
      );
    expect(declared).not.toBeNull();
    expect(processTieringBudget()).toBe(Number(declared![1]));
  });

  it('is the one the process was started with, in either spelling, the last one winning', () => {
    process.env.NODE_OPTIONS =
      '--wasm-tiering-budget=5000 --no-warnings --wasm_tiering_budget=7000';
    expect(processTieringBudget()).toBe(7000);
  });
});
