import type * as Jose from 'jose';

let jose: Promise<typeof Jose> | undefined;

/**
 * `jose`, imported the first time a token is verified or a `requestState`
 * sealed. A stdio server with no modern-era approval never needs it, and its
 * 60-odd modules would otherwise load with every process a desktop client
 * spawns.
 */
export function loadJose(): Promise<typeof Jose> {
  return (jose ??= import('jose'));
}
