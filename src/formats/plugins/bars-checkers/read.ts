import { FormatError } from '../../../core/errors.js';
import { ReadLimits, pliesExceeded } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';

/**
 * The surface syntax of a BARS file, in either of its two forms:
 * - assignments, Python style: `area_monitor = [[…]…]` and `go = [[…]…]` in either order, spaces and
 *   line breaks anywhere, `#` comments to the end of a line, an optional `;` after a statement;
 * - one JSON object `{"area_monitor": …, "go": …}` (area_monitor may be null or absent).
 * Values are nested arrays of non-negative decimal integers. Every token keeps its offset so errors
 * point into the text and the regenerated file can replace numbers in place.
 */

export type BarsForm = 'assignment' | 'json';
export type BarsKey = 'go' | 'area_monitor';

export interface NumberToken {
  readonly kind: 'number';
  readonly value: number;
  /** Offset and length of the digits in the decoded text. */
  readonly offset: number;
  readonly length: number;
}

export interface ArrayNode {
  readonly kind: 'array';
  readonly items: readonly (ArrayNode | NumberToken)[];
  readonly offset: number;
  /** Offset just after the closing bracket. */
  readonly end: number;
}

export interface BarsSyntax {
  readonly form: BarsForm;
  readonly go: ArrayNode;
  /** Absent (or JSON null) means the standard initial position. */
  readonly areaMonitor: ArrayNode | null;
  /** The text of every `#` comment, without the `#`, in file order. */
  readonly comments: readonly string[];
}

/** Parses the file; the move past `limits.maxPlies` is refused at its `[`, before it is read. */
export function parseBarsSyntax(text: string, limits: ReadLimits): BarsSyntax {
  return new Parser(text, limits).document();
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const JSON_KEY = /"([^"\\]*)"/y;
/** Anything that starts like a number, so that `1.5`, `-3` or `1e3` are reported whole. */
const NUMBER_LIKE = /-?[0-9][0-9.eE+-]*/y;
const DIGITS = /^[0-9]+$/;
const MAX_DEPTH = 2;

class Parser {
  private at = 0;
  private allowComments = true;
  private readonly comments: string[] = [];

  constructor(
    private readonly text: string,
    private readonly limits: ReadLimits,
  ) {}

  document(): BarsSyntax {
    this.skipBlank();
    if (this.text[this.at] === '{') return this.jsonObject();
    return this.assignments();
  }

  private assignments(): BarsSyntax {
    const values = new Map<BarsKey, ArrayNode | null>();
    while (this.skipBlank(), this.at < this.text.length) {
      const nameAt = this.at;
      const name = this.sticky(NAME)?.[0];
      if (name !== 'go' && name !== 'area_monitor') {
        throw this.error(`expected "go = [...]" or "area_monitor = [...]"${name ? `, found "${name}"` : ''}`, nameAt);
      }
      if (values.has(name)) throw this.error(`${name} is assigned twice`, nameAt);
      this.at += name.length;
      this.skipBlank();
      this.expect('=', `expected "=" after ${name}`);
      this.skipBlank();
      values.set(name, this.array(1, name === 'go'));
      this.skipBlank();
      if (this.text[this.at] === ';') this.at++;
    }
    return this.finish('assignment', values);
  }

  private jsonObject(): BarsSyntax {
    // JSON has no comments; a "#" in it is a syntax error like any other stray character.
    this.allowComments = false;
    const values = new Map<BarsKey, ArrayNode | null>();
    this.at++;
    this.skipBlank();
    if (this.text[this.at] !== '}') {
      for (;;) {
        this.skipBlank();
        const keyAt = this.at;
        const key = this.jsonKey();
        if (key !== 'go' && key !== 'area_monitor') throw this.error(`unknown key "${key}": a BARS object has only "go" and "area_monitor"`, keyAt);
        if (values.has(key)) throw this.error(`"${key}" appears twice`, keyAt);
        this.skipBlank();
        this.expect(':', `expected ":" after "${key}"`);
        this.skipBlank();
        if (key === 'area_monitor' && this.text.startsWith('null', this.at)) {
          this.at += 4;
          values.set(key, null);
        } else {
          values.set(key, this.array(1, key === 'go'));
        }
        this.skipBlank();
        if (this.text[this.at] === ',') {
          this.at++;
          continue;
        }
        break;
      }
    }
    this.expect('}', 'expected "," or "}" in the JSON object');
    this.skipBlank();
    if (this.at < this.text.length) throw this.error('unexpected text after the JSON object', this.at);
    return this.finish('json', values);
  }

  private finish(form: BarsForm, values: Map<BarsKey, ArrayNode | null>): BarsSyntax {
    const go = values.get('go');
    if (!go) throw this.error('the file has no "go" (the list of moves)', this.text.length);
    return { form, go, areaMonitor: values.get('area_monitor') ?? null, comments: this.comments };
  }

  private jsonKey(): string {
    const match = this.sticky(JSON_KEY);
    if (!match) throw this.error('expected a key in double quotes', this.at);
    this.at += match[0].length;
    return match[1];
  }

  /** `moves`: the value of go, whose inner arrays are the moves (counted against MAX_PLIES). */
  private array(depth = 1, moves = false): ArrayNode {
    const offset = this.at;
    // Both values are lists of lists of numbers; refusing deeper nesting also keeps hostile input off the call stack.
    if (depth > MAX_DEPTH) throw this.error(`arrays nest at most ${MAX_DEPTH} deep in a BARS file`, offset);
    this.expect('[', 'expected "["');
    const items: (ArrayNode | NumberToken)[] = [];
    for (;;) {
      this.skipBlank();
      const c = this.text[this.at];
      if (c === ']') break;
      if (moves && c === '[' && items.length >= this.limits.maxPlies) throw pliesExceeded(this.limits, locate(this.text, this.at));
      items.push(c === '[' ? this.array(depth + 1) : this.number());
      this.skipBlank();
      if (this.text[this.at] === ',') {
        // Python allows a trailing comma before "]"; so do we, in both forms.
        this.at++;
        continue;
      }
      if (this.text[this.at] !== ']') throw this.error(this.at >= this.text.length ? 'the file ends inside an array' : 'expected "," or "]"', this.at);
    }
    this.at++;
    return { kind: 'array', items, offset, end: this.at };
  }

  private number(): NumberToken {
    const offset = this.at;
    const match = this.sticky(NUMBER_LIKE);
    if (!match) {
      throw this.error(this.at >= this.text.length ? 'the file ends inside an array' : `expected a number or "[", found "${this.text[this.at]}"`, offset);
    }
    const written = match[0];
    if (!DIGITS.test(written)) throw this.error(`"${written}" is not a non-negative whole number`, offset);
    // Python 3 and JSON both refuse 0156; Python 2 read it as octal. Refuse rather than guess.
    if (written.length > 1 && written.startsWith('0')) throw this.error(`"${written}": numbers are written without leading zeros`, offset);
    this.at += written.length;
    return { kind: 'number', value: Number(written), offset, length: written.length };
  }

  /** A match of a sticky pattern at the current offset, without copying the text. */
  private sticky(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.at;
    return pattern.exec(this.text);
  }

  private expect(char: string, message: string): void {
    if (this.text[this.at] !== char) throw this.error(this.at >= this.text.length ? `${message}, but the file ends` : message, this.at);
    this.at++;
  }

  private skipBlank(): void {
    const text = this.text;
    while (this.at < text.length) {
      const c = text[this.at];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\uFEFF') this.at++;
      else if (c === '#' && this.allowComments) {
        const start = this.at + 1;
        while (this.at < text.length && text[this.at] !== '\n' && text[this.at] !== '\r') this.at++;
        this.comments.push(text.slice(start, this.at));
      } else break;
    }
  }

  private error(message: string, offset: number): FormatError {
    return FormatError.at(message, locate(this.text, offset));
  }
}
