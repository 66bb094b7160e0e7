import type { INestApplicationContext } from '@nestjs/common';

/**
 * Runs `app.init()` and closes the app either way: the rejection, or
 * undefined when it booted. The one place a suite asks "does this boot?".
 */
export async function bootOutcome(app: INestApplicationContext): Promise<Error | undefined> {
  try {
    await app.init();
    return undefined;
  } catch (error) {
    return error as Error;
  } finally {
    await app.close().catch(() => undefined);
  }
}
