import { ForbiddenException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { isObservable, lastValueFrom } from 'rxjs';
import { isPromiseLike } from '../../core/common/maybe-promise.js';

/** The message Nest gives the `ForbiddenException` of a guard that returned false. */
const FORBIDDEN_MESSAGE = 'Forbidden resource';

/**
 * Runs guards in order, as Nest's `GuardsConsumer` does, except that it stays
 * synchronous while the guards are: the seam guards answer synchronously for
 * synchronous authorizers, and every `tools/call` passes here. A guard that
 * refuses throws `ForbiddenException`; one that throws propagates as thrown.
 */
export function runGuards(
  guards: readonly CanActivate[],
  context: ExecutionContext,
  from = 0,
): true | Promise<true> {
  for (let index = from; index < guards.length; index++) {
    const result = guards[index].canActivate(context) as unknown;
    if (result === true) continue;
    if (!isPromiseLike(result) && !isObservable(result)) {
      if (result) continue;
      throw new ForbiddenException(FORBIDDEN_MESSAGE);
    }
    return settle(result).then((allowed) => {
      if (!allowed) throw new ForbiddenException(FORBIDDEN_MESSAGE);
      return runGuards(guards, context, index + 1);
    });
  }
  return true;
}

/** A promise, an observable (its last value) or a promise of an observable, settled. */
export async function settle(value: unknown): Promise<unknown> {
  const awaited = await value;
  return isObservable(awaited) ? lastValueFrom(awaited) : awaited;
}
