import { FormatError } from '../../../core/errors.js';
import { locate } from '../../text/decode.js';

/** The two shapes of a VK Dots upload. */
export type VkSource = VkSaveFile | VkBareCode;

export interface VkPlayerLine {
  readonly vkId: string;
  readonly name: string;
}

export interface VkFlags {
  /** `+`: the player who surrounds moves again. */
  readonly extraMove: boolean;
  /** `b` big, `m` medium, `s` small. */
  readonly fieldSize: 'b' | 'm' | 's';
  /** `+`: the game starts from a cross of 2+2 dots in the centre. */
  readonly crossStart: boolean;
}

export interface VkSaveFile {
  readonly kind: 'save';
  readonly text: string;
  readonly red: VkPlayerLine;
  readonly blue: VkPlayerLine;
  readonly flags: VkFlags;
  /** Lines 1-4 as written (without the line end after line 4). */
  readonly header: string;
  readonly code: string;
  /** Character offset of the code (line 5) in the text. */
  readonly codeOffset: number;
}

export interface VkBareCode {
  readonly kind: 'code';
  readonly text: string;
  readonly code: string;
  readonly codeOffset: number;
}

interface Line {
  readonly text: string;
  readonly offset: number;
}

/**
 * Lines with their offsets; a line end after the last line does not start another line, and
 * empty lines at the end of the file (a blank line left by an editor) are not counted.
 */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const pattern = /\r\n|\n|\r/g;
  let start = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    lines.push({ text: text.slice(start, match.index), offset: start });
    start = match.index + match[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), offset: start });
  while (lines.length > 0 && lines[lines.length - 1].text === '') lines.pop();
  return lines;
}

const PLAYER_LINE = /^(\d+) (.+)$/;
const FLAGS_LINE = /^([+-])([bms])([+-])$/;
const CODE_CHARS = /^[0-9a-z#@]+$/;

/** Cheap shape test used by detection: a 5-line save starting `1.0` with a player line. */
export function looksLikeSaveFile(lines: readonly Line[]): boolean {
  return lines.length === 5 && lines[0].text === '1.0' && /^\d+ /.test(lines[1].text) && /^\d+ /.test(lines[2].text);
}

/**
 * Cheap shape test for a bare game code: one line of lowercase base-36 digits, `#` and `@`,
 * starting with a move, with at least one letter or record (a string of decimal digits alone is
 * not claimed).
 */
export function looksLikeBareCode(lines: readonly Line[]): boolean {
  if (lines.length !== 1) return false;
  const code = lines[0].text;
  return code.length >= 2 && CODE_CHARS.test(code) && code[0] !== '#' && code[0] !== '@' && /[a-z#]/.test(code);
}

/**
 * Cheap shape test for a bare game code the first test leaves out: one line of decimal digits
 * alone, moves only (pairs of digits 1-9, as rows and columns count from 1), at least two of them.
 * Any number could take that shape, so detection offers it as a fallback only.
 */
export function looksLikeDigitsCode(lines: readonly Line[]): boolean {
  return lines.length === 1 && /^(?:[1-9][1-9]){2,}$/.test(lines[0].text);
}

/** Splits an upload into header lines and game code, or explains where it is malformed. `lines` is {@link splitLines} of `text`. */
export function readSource(text: string, lines: readonly Line[]): VkSource {
  if (lines.length === 1 && lines[0].text.length > 0) {
    const code = lines[0].text;
    for (let i = 0; i < code.length; i++) {
      if (!/[0-9a-z#@]/.test(code[i])) {
        throw FormatError.at(`VK game code: character ${JSON.stringify(code[i])} at character offset ${i} is not a base-36 digit, # or @`, locate(text, i));
      }
    }
    return { kind: 'code', text, code, codeOffset: 0 };
  }
  if (lines.length !== 5) {
    throw new FormatError(`a VK Dots save file has 5 lines (version, red, blue, flags, game code), this upload has ${lines.length}`);
  }
  const at = (message: string, offset: number): FormatError => FormatError.at(message, locate(text, offset));
  if (lines[0].text !== '1.0') throw at(`line 1 must be the text version 1.0, got ${JSON.stringify(lines[0].text)}`, lines[0].offset);
  const players = [lines[1], lines[2]].map((line, index) => {
    const match = PLAYER_LINE.exec(line.text);
    if (match === null) throw at(`line ${index + 2} must be a numeric VK id, a space and the player's name`, line.offset);
    return { vkId: match[1], name: match[2] };
  });
  const flags = FLAGS_LINE.exec(lines[3].text);
  if (flags === null) {
    throw at(`line 4 must be three flags: extra move +/-, field size b/m/s, cross start +/- (got ${JSON.stringify(lines[3].text)})`, lines[3].offset);
  }
  const codeLine = lines[4];
  for (let i = 0; i < codeLine.text.length; i++) {
    if (!/[0-9a-z#@]/.test(codeLine.text[i])) {
      throw at(`VK game code: character ${JSON.stringify(codeLine.text[i])} at character offset ${codeLine.offset + i} is not a base-36 digit, # or @`, codeLine.offset + i);
    }
  }
  return {
    kind: 'save',
    text,
    red: players[0],
    blue: players[1],
    flags: { extraMove: flags[1] === '+', fieldSize: flags[2] as 'b' | 'm' | 's', crossStart: flags[3] === '+' },
    header: text.slice(0, lines[3].offset + lines[3].text.length),
    code: codeLine.text,
    codeOffset: codeLine.offset,
  };
}
