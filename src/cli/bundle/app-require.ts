import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * A `require` that resolves as the app in the current directory does: the command runs at the
 * app's root, and what it bundles or leaves out is what that app has installed.
 */
export function appRequire(): NodeJS.Require {
  return createRequire(join(process.cwd(), 'package.json'));
}
