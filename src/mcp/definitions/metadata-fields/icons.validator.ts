import { IconSchema } from '@modelcontextprotocol/core';
import { isHttpUrl } from '../../core/common/http-url.js';
import { firstIssue } from './zod-issue.js';

/*
 * The official schema checks an icon's shape (`sizes` an array, `theme` light
 * or dark); the spec's prose adds what `src` may be: an HTTP(S) URL or a
 * base64 `data:` image. A `javascript:` or `file:` src is refused here, at
 * registration, rather than left to every client to distrust.
 */
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+;base64,[a-z0-9+/]*={0,2}$/i;
const SIZE = /^(?:\d+x\d+|any)$/;

/** Why `icons` is not a valid `icons` list, or undefined when it is. */
export function iconsProblem(icons: unknown): string | undefined {
  if (!Array.isArray(icons)) return 'icons must be an array';
  for (const [index, icon] of icons.entries()) {
    const at = `icons[${index}]`;
    const parsed = IconSchema.safeParse(icon);
    if (!parsed.success) return firstIssue(parsed.error, at);
    const problem = srcProblem(parsed.data.src) ?? sizesProblem(parsed.data.sizes);
    if (problem) return `${at}.${problem}`;
  }
  return undefined;
}

function srcProblem(src: string): string | undefined {
  if (/^data:/i.test(src)) {
    return DATA_IMAGE.test(src) ? undefined : 'src: a data URI must be data:image/<type>;base64,…';
  }
  return isHttpUrl(src) ? undefined : 'src must be an absolute https:, http: or data: URI';
}

function sizesProblem(sizes: readonly string[] | undefined): string | undefined {
  const bad = sizes?.find((size) => !SIZE.test(size));
  return bad === undefined ? undefined : `sizes: ${JSON.stringify(bad)} is neither WxH nor "any"`;
}
