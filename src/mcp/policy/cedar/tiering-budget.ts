import { setFlagsFromString } from 'node:v8';

/*
 * V8 runs WebAssembly first as quickly compiled baseline code, and recompiles a function with its
 * optimizing compiler once the function has run through its "tiering budget" (roughly, bytes of
 * code executed). Cedar's boot (parsing every policy, validating the set against the schema)
 * runs its parser and validator through that budget many times over, so a default V8 queued
 * some 500 ms of optimizing work for code a server then never runs again, on the same two cores
 * as the app's own boot. A module takes the budget in force when it is compiled; after a
 * function's first recompilation check it takes the process's budget again. So Cedar's module
 * is compiled under a large budget, and the process's is put back at once: the code a server runs
 * on every decision is still optimized, a few thousand decisions later (docs/policy.md,
 * "Performance").
 */

/** Cedar's budget while its module compiles: about 100 times V8's (it varies by version). */
export const CEDAR_TIERING_BUDGET = 200_000_000;
const FLAG = '--wasm-tiering-budget';

/** The process's own budget: what it was started with, or its V8's default. */
export function processTieringBudget(): number {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]
    .map((arg) => new RegExp(`^${FLAG}=(\\d+)$`).exec(arg.replaceAll('_', '-')))
    .findLast(Boolean);
  if (given) return Number(given[1]);
  // V8 raised its default from 1,800,000 to 13,000,000 in version 12 (Node 22).
  return Number(process.versions.v8.split('.')[0]) >= 12 ? 13_000_000 : 1_800_000;
}

/**
 * Runs `compile` (which compiles Cedar's module) under Cedar's budget, and puts the process's
 * back once it settles: V8 reads the budget when compiling, and an asynchronous compile may read
 * it after `compile` has returned.
 */
export async function underCedarBudget<T>(compile: () => T | Promise<T>): Promise<T> {
  setFlagsFromString(`${FLAG}=${CEDAR_TIERING_BUDGET}`);
  try {
    return await compile();
  } finally {
    setFlagsFromString(`${FLAG}=${processTieringBudget()}`);
  }
}
