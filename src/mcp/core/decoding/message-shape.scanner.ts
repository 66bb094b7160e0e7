import { shapeProblemText, type ArgumentShapeLimits, type ShapeBound } from './argument-shape.js';
import { cannotCrossBounds } from './small-body.check.js';

/** The bounds a decoded body is held to, before `JSON.parse` builds any of it. */
export interface MessageShapeBounds extends ArgumentShapeLimits {
  /** Most messages one 2025-03-26 batch may carry (`limits.maxInFlightPerConnection`). */
  readonly maxBatchItems: number;
}

/** A member of one message's `params` that crosses a bound: its text span, and why. */
export interface OversizedMember {
  /** Index of the message in its batch (0 outside a batch). */
  readonly message: number;
  /** The member's key, as written in the text (still JSON-escaped, without quotes). */
  readonly rawKey: string;
  /** Where its value starts and ends in the text (`end` exclusive). */
  readonly start: number;
  readonly end: number;
  readonly problem: string;
}

/** What a scan found: members to cut out, or a reason to refuse the body whole. */
export type MessageShapeScan =
  | { readonly refusal: string }
  | { readonly refusal?: undefined; readonly oversized: readonly OversizedMember[] };

/** Everything together holds at most this many times `maxArgumentKeys` values. */
export const BODY_VALUES_FACTOR = 4;
/** Levels above a member of `params`: a batch, a message, its params. */
const ENVELOPE_LEVELS = 3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * One pass over a body's text that measures its shape before `JSON.parse`
 * spends anything on it: `JSON.parse` of a 4 MiB body of tiny keys holds
 * the event loop for hundreds of milliseconds, this pass for a few.
 *
 * Each container member of a message's `params` (a call's `arguments`, its
 * `_meta`, …) is held to the argument bounds on its own: one that crosses
 * them is reported with its span, so the decoder can cut it out and the
 * message still gets the answer its bound deserves (an `isError` result for
 * arguments, -32602 for the rest). The body as a whole is held to
 * `BODY_VALUES_FACTOR` times `maxArgumentKeys` values (members cut out do not
 * count), to the argument depth plus its envelope, and to `maxBatchItems`;
 * past those it is refused whole, and the scan stops there. Counts are those
 * of `argumentShapeProblem` (object keys and array items, every nested
 * container being one of its parent's), so a member the scan lets through is
 * judged again, exactly, after parsing. Strings are skipped with `indexOf`;
 * a malformed body is left for `JSON.parse` to refuse.
 */
export function scanMessageShape(text: string, bounds: MessageShapeBounds): MessageShapeScan {
  return cannotCrossBounds(text, bounds) ? NOTHING_OVERSIZED : new ShapeScanner(text, bounds).run();
}

/** A scan that found nothing; shared, as nothing reads it but to see it is empty. */
const NOTHING_OVERSIZED: MessageShapeScan = Object.freeze({ oversized: Object.freeze([]) });

/*
 * The per-level arrays every scan shares. A scan runs to its end synchronously, so one pair
 * serves them all, and a level's entries are set as it opens. Allocated per scan, arrays of
 * this size live outside V8's heap: their allocation and release cost ten times the scan of a
 * small message (docs/performance.md, "Reading requests"). Grown only for a larger
 * `maxArgumentDepth` (a server's option, never a caller's).
 */
let levels = { isArray: new Uint8Array(0), children: new Uint32Array(0) };

function levelArrays(size: number): typeof levels {
  if (levels.isArray.length < size) {
    levels = { isArray: new Uint8Array(size), children: new Uint32Array(size) };
  }
  // Level 0, outside every container, is never opened: it starts empty.
  levels.isArray[0] = 0;
  levels.children[0] = 0;
  return levels;
}

/** A `params` member being measured. */
interface Unit {
  readonly start: number;
  readonly rawKey: string;
  values: number;
}

class ShapeScanner {
  private readonly maxBodyValues: number;
  private readonly maxLevel: number;
  /** Per open level: whether it is an array, and how many values it holds so far. */
  private readonly isArray: Uint8Array;
  private readonly children: Uint32Array;
  private readonly oversized: OversizedMember[] = [];
  private depth = 0;
  /** The level messages sit at: 1, or 2 inside a batch. */
  private messageLevel = 1;
  /** Values counted, members cut out excepted. */
  private values = 0;
  /** The open `params` object's level (0: none), and the span of the last key read in it. */
  private paramsLevel = 0;
  private keyStart = 0;
  private keyEnd = 0;
  private lastKeyWasParams = false;
  private unit: Unit | undefined;
  private expectKey = false;
  private expectValue = true;
  /** Set when the body is refused whole. */
  private refusal: string | undefined;
  /** Set when the member being measured crossed a bound. */
  private crossed: ShapeBound | undefined;

  constructor(
    private readonly text: string,
    private readonly bounds: MessageShapeBounds,
  ) {
    this.maxBodyValues = BODY_VALUES_FACTOR * bounds.maxArgumentKeys;
    this.maxLevel = ENVELOPE_LEVELS + bounds.maxArgumentDepth;
    ({ isArray: this.isArray, children: this.children } = levelArrays(this.maxLevel + 2));
  }

  run(): MessageShapeScan {
    const { text } = this;
    const length = text.length;
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const end = closingQuote(text, i);
        if (end < 0) break; // unterminated: JSON.parse says so
        this.string(i, end);
        i = end;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        this.open(c === OPEN_ARRAY, i);
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        this.close();
      } else if (c === COMMA) {
        if (this.isArray[this.depth]) this.expectValue = true;
        else this.expectKey = true;
      } else if (c === COLON) {
        this.expectValue = true;
      } else if (this.expectValue && c > 0x20) {
        this.value();
      }
      if (this.refusal) return { refusal: this.refusal };
      if (this.crossed) i = this.skipUnit(i + 1) - 1;
    }
    return { oversized: this.oversized };
  }

  /* A key (one value of its object) or a string value. */
  private string(start: number, end: number): void {
    if (!this.expectKey) {
      if (this.expectValue) this.value();
      return;
    }
    this.expectKey = false;
    if (this.depth === this.messageLevel) {
      this.lastKeyWasParams = end - start === 7 && this.text.startsWith('"params"', start);
    } else if (this.depth === this.paramsLevel) {
      this.keyStart = start + 1;
      this.keyEnd = end;
    }
    this.count();
  }

  /* A value starts at this level; in an array it is one item. */
  private value(): void {
    this.expectValue = false;
    if (this.isArray[this.depth]) this.count();
  }

  private count(): void {
    const level = this.depth;
    const held = ++this.children[level];
    const unit = this.unit;
    if (unit) {
      const { maxArgumentKeys, maxArgumentArrayLength } = this.bounds;
      if (this.isArray[level] && held > maxArgumentArrayLength) this.crossed = 'array';
      else if (++unit.values > maxArgumentKeys) this.crossed = 'keys';
    } else if (level === 1 && this.messageLevel === 2 && held > this.bounds.maxBatchItems) {
      this.refusal = `a batch holds more than ${this.bounds.maxBatchItems} messages`;
    }
    if (++this.values > this.maxBodyValues && !this.crossed) {
      this.refusal = `the body holds more than ${this.maxBodyValues} keys and items`;
    }
  }

  private open(array: boolean, at: number): void {
    if (this.depth === 0 && array) this.messageLevel = 2;
    if (this.expectValue) this.value();
    const level = ++this.depth;
    if (this.unit) {
      // Inside a member its own bound applies (and keeps `level` within the arrays).
      if (level - this.paramsLevel > this.bounds.maxArgumentDepth) {
        this.crossed ??= 'depth';
        return;
      }
    } else if (level > this.maxLevel) {
      this.refusal = `the body nests deeper than ${this.maxLevel} levels`;
      return;
    }
    this.isArray[level] = array ? 1 : 0;
    this.children[level] = 0;
    this.expectKey = !array;
    this.expectValue = array;
    if (this.unit) return;
    if (this.paramsLevel > 0 && level === this.paramsLevel + 1) {
      this.unit = { start: at, rawKey: this.text.slice(this.keyStart, this.keyEnd), values: 0 };
    } else if (level === this.messageLevel + 1 && this.lastKeyWasParams && !array) {
      this.paramsLevel = level;
    }
  }

  private close(): void {
    const level = this.depth;
    if (level === 0) return;
    this.depth = level - 1;
    this.expectKey = false;
    this.expectValue = false;
    if (this.unit && level === this.paramsLevel + 1) this.unit = undefined;
    if (level === this.paramsLevel) this.paramsLevel = 0;
    if (level === this.messageLevel) this.lastKeyWasParams = false;
  }

  /*
   * The member being measured crossed a bound: its span is recorded and the
   * scan moves on from `from` to just past its end, counting only brackets
   * (no bound applies inside a member already refused). Its values no longer
   * count against the body. Returns the index after the member.
   */
  private skipUnit(from: number): number {
    const unit = this.unit!;
    const { text } = this;
    let open = this.depth - this.paramsLevel;
    let i = from;
    for (; i < text.length && open > 0; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        const end = closingQuote(text, i);
        if (end < 0) break;
        i = end;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) open++;
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) open--;
    }
    this.oversized.push({
      message: this.messageLevel === 2 ? this.children[1] - 1 : 0,
      rawKey: unit.rawKey,
      start: unit.start,
      end: i,
      problem: shapeProblemText(this.crossed!, this.bounds),
    });
    this.values -= unit.values;
    this.unit = undefined;
    this.crossed = undefined;
    // Back at the params object's level, just past the member.
    this.depth = this.paramsLevel;
    this.expectKey = false;
    this.expectValue = false;
    return i;
  }
}

/** Index of the quote closing the string opened at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
}
