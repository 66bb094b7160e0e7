import { processTieringBudget } from './tiering-budget.js';

describe('processTieringBudget', () => {
  const saved = process.env.NODE_OPTIONS;
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = saved;
  });

  it("is V8's default for this Node when the process was not given one", () => {
    process.env.NODE_OPTIONS = '--no-warnings';
    const major = Number(process.versions.v8.split('.')[0]);
    expect(processTieringBudget()).toBe(major >= 12 ? 13_000_000 : 1_800_000);
  });

  it('is the one the process was started with, in either spelling, the last one winning', () => {
    process.env.NODE_OPTIONS =
      '--wasm-tiering-budget=5000 --no-warnings --wasm_tiering_budget=7000';
    expect(processTieringBudget()).toBe(7000);
  });
});
