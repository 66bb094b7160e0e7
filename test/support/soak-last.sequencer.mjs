import Sequencer from '@jest/test-sequencer';

const Base = Sequencer.default ?? Sequencer;

/* The suites that judge latency under load (the soak's hostile mode). */
const LOAD_JUDGED = /[/\\]test[/\\]soak\.e2e-spec\.ts$/;

/**
 * Jest's own order (the last run's failures first, then suites without a recorded time, then
 * the slowest) with the soak moved to the end. Its hostile mode judges which defences a flood
 * reaches in time, so it must not start beside the browser and cluster suites that open a run:
 * on two cores their load, not the server, decided its outcome. And a soak that failed once
 * would otherwise be scheduled first again, beside them.
 */
export default class SoakLastSequencer extends Base {
  sort(tests) {
    const sorted = super.sort(tests);
    return [
      ...sorted.filter((test) => !LOAD_JUDGED.test(test.path)),
      ...sorted.filter((test) => LOAD_JUDGED.test(test.path)),
    ];
  }
}
