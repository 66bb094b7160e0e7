import { emptyTally, jsonStringBytes, tallyValue, type ArgumentTally } from './argument-tally.js';
import { keyShown, MAX_KEY_CHARS, uniqueKey } from './preview-keys.js';

/** Keys whose values never appear in a preview (matched case-insensitively, anywhere in the key). */
const SECRET_KEY =
  /pass(word|wd|phrase)?|secret|token|key$|authori[sz]ation|^auth$|auth[-_]|credential|cookie|session|signature|^otp$|^pin$/i;

/** What stands in for a redacted value, and for what a bound cut off. */
export const REDACTED = '[redacted]';
const CUT = '…';

/** What `shrink` answers for a value with no room left to show even a part of it. */
const NO_ROOM = Symbol('no room');

/** The bounds of one preview; the defaults keep it readable on a console row. */
export interface McpArgumentPreviewBounds {
  /** The longest string value shown, in characters. Default 200. */
  maxStringChars?: number;
  /** The deepest nesting shown. Default 4. */
  maxDepth?: number;
  /** Keys (or items) shown per object (or array). Default 20. */
  maxKeys?: number;
  /** The longest JSON shown, in characters (the line saying what was left out follows it). Default 2 000. */
  maxChars?: number;
}

interface PreviewState {
  readonly maxStringChars: number;
  readonly maxDepth: number;
  readonly maxKeys: number;
  /** Characters of JSON still free. */
  room: number;
  /** Set once an entry did not fit: nothing after it is shown, so the preview ends where it was cut. */
  full: boolean;
  readonly left: ArgumentTally;
}

/**
 * A redacted, bounded JSON preview of a call's arguments, for the operator
 * who decides an ask (docs/operator-approvals.md): values under secret-looking keys are
 * replaced, long strings and keys cut, deep or wide structures elided, and the
 * JSON kept within `maxChars`. Whenever a bound left anything out, a second
 * line says how much: `… left out: 2 keys, 3 items, 1840 bytes` (the JSON
 * size of what is not shown; secret values are not measured). Two arguments
 * never show as one: a cut key carries a digest of the whole key, and a
 * shown key that is already taken gets a number. The arguments are the
 * caller's untrusted input, so nothing here throws or grows with them.
 */
export function argumentPreview(args: unknown, bounds: McpArgumentPreviewBounds = {}): string {
  const state: PreviewState = {
    maxStringChars: bounds.maxStringChars ?? 200,
    maxDepth: bounds.maxDepth ?? 4,
    maxKeys: bounds.maxKeys ?? 20,
    room: bounds.maxChars ?? 2_000,
    full: false,
    left: emptyTally(),
  };
  let shown = shrink(args, 0, state);
  if (shown === NO_ROOM) {
    tallyValue(args, state.left, isSecret);
    shown = CUT;
  }
  const text = JSON.stringify(shown);
  const note = leftOutNote(state.left);
  return note === undefined ? text : `${text}\n${note}`;
}

/** The line that says what a preview left out, or undefined when it shows everything. */
function leftOutNote({ keys, items, bytes }: ArgumentTally): string | undefined {
  if (keys === 0 && items === 0 && bytes === 0) return undefined;
  const counts = [
    ...(keys > 0 ? [`${keys} ${keys === 1 ? 'key' : 'keys'}`] : []),
    ...(items > 0 ? [`${items} ${items === 1 ? 'item' : 'items'}`] : []),
    `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`,
  ];
  return `${CUT} left out: ${counts.join(', ')}`;
}

function isSecret(key: string): boolean {
  return SECRET_KEY.test(key);
}

/* Takes `cost` characters of room, if there are that many. */
function take(state: PreviewState, cost: number): boolean {
  if (cost > state.room) return false;
  state.room -= cost;
  return true;
}

function shrink(value: unknown, depth: number, state: PreviewState): unknown {
  if (typeof value === 'string') return shrinkString(value, state);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
    return take(state, JSON.stringify(value).length) ? value : NO_ROOM;
  }
  if (typeof value !== 'object') return shrinkString(typeof value, state);
  if (depth >= state.maxDepth) {
    const marker = Array.isArray(value) ? `[${CUT}]` : `{${CUT}}`;
    if (!take(state, JSON.stringify(marker).length)) return NO_ROOM;
    tallyValue(value, state.left, isSecret);
    return marker;
  }
  // The brackets, taken first: whatever fits inside is shown, and the rest counted.
  if (!take(state, 2)) return NO_ROOM;
  return Array.isArray(value)
    ? shrinkArray(value, depth, state)
    : shrinkObject(value as Record<string, unknown>, depth, state);
}

/* The stand-in for a secret value: whole, or not at all. */
function redacted(state: PreviewState): unknown {
  return take(state, JSON.stringify(REDACTED).length) ? REDACTED : NO_ROOM;
}

/* A string, cut to `maxStringChars` and to the room left; the cut-off part is counted. */
function shrinkString(value: string, state: PreviewState): unknown {
  let cut = Math.min(value.length, state.maxStringChars);
  let text = cut < value.length ? value.slice(0, cut) + CUT : value;
  let cost = JSON.stringify(text).length;
  while (cost > state.room && cut > 0) {
    // Each character costs at least one, so this ends within a few turns.
    cut = Math.max(0, cut - (cost - state.room));
    text = value.slice(0, cut) + CUT;
    cost = JSON.stringify(text).length;
  }
  if (!take(state, cost)) return NO_ROOM;
  if (cut < value.length) state.left.bytes += jsonStringBytes(value.slice(cut)) - 2;
  return text;
}

function shrinkArray(value: unknown[], depth: number, state: PreviewState): unknown[] {
  const out: unknown[] = [];
  for (const item of value) {
    if (out.length < state.maxKeys && !state.full) {
      const comma = out.length > 0 ? 1 : 0;
      if (take(state, comma)) {
        const shown = shrink(item, depth + 1, state);
        if (shown !== NO_ROOM) {
          out.push(shown);
          continue;
        }
        state.room += comma;
      }
      state.full = true;
    }
    state.left.items++;
    tallyValue(item, state.left, isSecret);
  }
  const more = value.length - out.length;
  if (more > 0) {
    const marker = `${CUT} ${more} more`;
    if (take(state, JSON.stringify(marker).length + (out.length > 0 ? 1 : 0))) out.push(marker);
  }
  return out;
}

function shrinkObject(
  value: Record<string, unknown>,
  depth: number,
  state: PreviewState,
): Record<string, unknown> {
  // No prototype: a key named `__proto__` is an entry like any other, not a way to vanish.
  const out: Record<string, unknown> = Object.create(null);
  let shownKeys = 0;
  let more = false;
  // for…in, not Object.keys: an object with a million keys is never copied into an array.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const room = shownKeys < state.maxKeys && !state.full;
    if (room && showEntry(out, shownKeys === 0, key, value[key], depth, state)) {
      shownKeys++;
      continue;
    }
    more = true;
    state.left.keys++;
    state.left.bytes += jsonStringBytes(key) + 1;
    if (!isSecret(key)) tallyValue(value[key], state.left, isSecret);
  }
  if (more) {
    const marker = uniqueKey(out, CUT);
    const cost = JSON.stringify(marker).length + ':"more keys"'.length + (shownKeys > 0 ? 1 : 0);
    if (take(state, cost)) out[marker] = 'more keys';
  }
  return out;
}

/* Shows one entry if its key and at least part of its value fit; else leaves `out` as it was. */
function showEntry(
  out: Record<string, unknown>,
  first: boolean,
  key: string,
  item: unknown,
  depth: number,
  state: PreviewState,
): boolean {
  const shownKey = uniqueKey(out, keyShown(key));
  const keyCost = JSON.stringify(shownKey).length + 1 + (first ? 0 : 1);
  if (take(state, keyCost)) {
    const shown = isSecret(key) ? redacted(state) : shrink(item, depth + 1, state);
    if (shown !== NO_ROOM) {
      out[shownKey] = shown;
      if (key.length > MAX_KEY_CHARS) {
        state.left.bytes += jsonStringBytes(key.slice(MAX_KEY_CHARS)) - 2;
      }
      return true;
    }
    state.room += keyCost;
  }
  state.full = true;
  return false;
}
