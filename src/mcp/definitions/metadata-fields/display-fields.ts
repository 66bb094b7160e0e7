import type { McpDisplayOptions } from './display.interface.js';
import { iconsProblem } from './icons.validator.js';
import { metaProblem } from './meta.validator.js';

/**
 * Checks a definition's `title`, `icons` and `_meta` and returns the ones it
 * set, as they will be listed. They are copies: a decorator's options object
 * changed later does not change what clients were told.
 */
export function displayFieldsOf(
  def: McpDisplayOptions,
  fail: (problem: string) => Error,
): McpDisplayOptions {
  const listed: McpDisplayOptions = {};
  if (def.title !== undefined) {
    if (typeof def.title !== 'string') throw fail('title must be a string');
    listed.title = def.title;
  }
  if (def.icons !== undefined) {
    const problem = iconsProblem(def.icons);
    if (problem) throw fail(problem);
    listed.icons = def.icons.map((icon) =>
      icon.sizes ? { ...icon, sizes: [...icon.sizes] } : { ...icon },
    );
  }
  if (def._meta !== undefined) {
    const problem = metaProblem(def._meta);
    if (problem) throw fail(problem);
    // What is listed is what goes on the wire: the JSON of it.
    listed._meta = JSON.parse(JSON.stringify(def._meta)) as McpDisplayOptions['_meta'];
  }
  return listed;
}
