import { FormatError } from '../../../core/errors.js';
import { locate } from '../../text/decode.js';

/**
 * The tokens of PDN text, each with its offset in the decoded text:
 * - `tag`: a tag pair `[Name "value"]` (the value unescaped: `\"` and `\\`);
 * - `comment`: `{…}` (any lines) or `;` to the end of the line;
 * - `open` / `close`: the parentheses of a variation;
 * - `number`: a move number, `12.` or `12...`;
 * - `nag`: `$3`, or a strength mark standing alone (`!`, `?!`);
 * - `result`: a game terminator, `1-0`, `0-1`, `1/2-1/2`, `2-0`, `0-2`, `1-1`, `*`;
 * - `move`: anything else, read as a move later (`c3-d4`, `22x13`, or garbage such as `-`).
 * A move number glued to its move (`1.c3-d4`) gives two tokens.
 */
export type Token =
  | { readonly kind: 'tag'; readonly name: string; readonly value: string; readonly valueOffset: number; readonly offset: number; readonly end: number }
  | { readonly kind: 'comment' | 'open' | 'close' | 'number' | 'nag' | 'result' | 'move'; readonly text: string; readonly offset: number; readonly end: number };

export const RESULTS: ReadonlySet<string> = new Set(['1-0', '0-1', '1/2-1/2', '2-0', '0-2', '1-1', '*']);

const WORD = /[^\s{}()[\];]+/y;
const MOVE_NUMBER = /^[0-9]+\.+/;
/** `1. ... d6-e5`: the dots of a black move standing apart from its number. */
const DOTS = /^\.+$/;
const NAG = /^(?:\$[0-9]+|[!?]{1,2})$/;
const TAG_NAME = /[A-Za-z][A-Za-z0-9_]*/y;

export class Lexer {
  private at = 0;
  private peeked: Token | null = null;

  constructor(readonly text: string) {}

  peek(): Token | null {
    if (this.peeked === null) this.peeked = this.read();
    return this.peeked;
  }

  next(): Token | null {
    const token = this.peek();
    this.peeked = null;
    return token;
  }

  error(message: string, offset: number): FormatError {
    return FormatError.at(message, locate(this.text, offset));
  }

  private read(): Token | null {
    const text = this.text;
    while (this.at < text.length && /\s|\uFEFF/.test(text[this.at])) this.at++;
    if (this.at >= text.length) return null;
    const offset = this.at;
    const c = text[offset];
    if (c === '[') return this.tag();
    if (c === '{') {
      const close = text.indexOf('}', offset + 1);
      if (close < 0) throw this.error('the comment "{" is never closed with "}"', offset);
      this.at = close + 1;
      return { kind: 'comment', text: text.slice(offset + 1, close), offset, end: this.at };
    }
    if (c === ';') {
      let end = offset + 1;
      while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
      this.at = end;
      return { kind: 'comment', text: text.slice(offset + 1, end), offset, end };
    }
    if (c === '(' || c === ')') {
      this.at++;
      return { kind: c === '(' ? 'open' : 'close', text: c, offset, end: this.at };
    }
    if (c === ']' || c === '}') throw this.error(`unexpected "${c}"`, offset);
    WORD.lastIndex = offset;
    const word = (WORD.exec(text) as RegExpExecArray)[0];
    const number = MOVE_NUMBER.exec(word);
    if (number && number[0].length < word.length && !RESULTS.has(word)) {
      // `1.c3-d4`: the number now, the move on the next call.
      this.at = offset + number[0].length;
      return { kind: 'number', text: number[0], offset, end: this.at };
    }
    this.at = offset + word.length;
    const kind = RESULTS.has(word) ? 'result' : number || DOTS.test(word) ? 'number' : NAG.test(word) ? 'nag' : 'move';
    return { kind, text: word, offset, end: this.at };
  }

  /** `[Name "value"]`, all on one line; anything else is a malformed tag, located precisely. */
  private tag(): Token {
    const text = this.text;
    const offset = this.at;
    this.at++;
    this.skipSpaces();
    TAG_NAME.lastIndex = this.at;
    const name = TAG_NAME.exec(text)?.[0];
    if (!name) throw this.error('malformed tag: expected a tag name after "["', this.at);
    this.at += name.length;
    this.skipSpaces();
    if (text[this.at] !== '"') throw this.error(`malformed tag ${name}: expected its value in double quotes`, this.at);
    const quote = this.at;
    let value = '';
    this.at++;
    for (;;) {
      const ch = text[this.at];
      if (ch === undefined || ch === '\n' || ch === '\r') throw this.error(`malformed tag ${name}: the value is not closed with " on its line`, quote);
      if (ch === '"') break;
      if (ch === '\\' && (text[this.at + 1] === '"' || text[this.at + 1] === '\\')) {
        value += text[this.at + 1];
        this.at += 2;
        continue;
      }
      value += ch;
      this.at++;
    }
    this.at++;
    this.skipSpaces();
    if (text[this.at] !== ']') throw this.error(`malformed tag ${name}: expected "]" after the value`, this.at);
    this.at++;
    return { kind: 'tag', name, value, valueOffset: quote + 1, offset, end: this.at };
  }

  private skipSpaces(): void {
    while (this.text[this.at] === ' ' || this.text[this.at] === '\t') this.at++;
  }
}
