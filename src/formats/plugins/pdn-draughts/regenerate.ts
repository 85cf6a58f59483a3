import type { Move } from '../../../rules/checkers/move.js';
import { isCapture } from '../../../rules/checkers/move.js';
import type { Colour } from '../../../rules/checkers/pieces.js';
import type { Line, MoveNode } from './model.js';
import { SquareStyle, readMoveToken, writeSquare } from './notation.js';

/** Longest line of the regenerated move text, as PGN/PDN writers keep it. */
const LINE_WIDTH = 79;

/**
 * The game written back as PDN: its tags as written, in order, with the Result the replay
 * establishes (the rules' result, else the record's own); the move text with regenerated move
 * numbers, every replayed move with its full path in the file's square style (`c3:e5:g7`,
 * `22x15x8`), moves that were not replayed as written, comments, NAGs and variations kept, and the
 * result as terminator.
 */
export function writePdn(game: PdnToWrite, resolved: ReadonlyMap<MoveToWrite, Move>, result: string | null, firstToMove: Colour): string {
  const style = squareStyle(game.main);
  const tags = game.tags.map((tag) => `[${tag.name} "${escape(tag.name === 'Result' && result !== null ? result : tag.value)}"]`);
  const words: string[] = [];
  writeLine(game.main, words, { resolved, style, blackFirst: firstToMove === 'black' });
  words.push(result ?? '*');
  const body = wrap(words);
  return tags.length > 0 ? `${tags.join('\n')}\n\n${body}\n` : `${body}\n`;
}

/** What the writer needs of a game: a parsed game ({@link PdnGame}) is one, and so is a game built from the family's model. */
export interface PdnToWrite {
  readonly tags: readonly { readonly name: string; readonly value: string }[];
  readonly main: LineToWrite;
}

export type LineToWrite = Pick<Line, 'comments'> & { readonly moves: readonly MoveToWrite[] };
export type MoveToWrite = Pick<MoveNode, 'text' | 'ply' | 'nags' | 'comments'> & { readonly variations: readonly LineToWrite[] };

interface Writing {
  readonly resolved: ReadonlyMap<MoveToWrite, Move>;
  readonly style: SquareStyle;
  readonly blackFirst: boolean;
}

function writeLine(line: LineToWrite, words: string[], writing: Writing): void {
  for (const comment of line.comments) words.push(`{${comment}}`);
  let interrupted = true;
  for (const node of line.moves) {
    const index = node.ply - 1 + (writing.blackFirst ? 1 : 0);
    const number = Math.floor(index / 2) + 1;
    if (index % 2 === 0) words.push(`${number}.`);
    else if (interrupted) words.push(`${number}...`);
    words.push(moveText(node, writing));
    words.push(...node.nags);
    for (const comment of node.comments) words.push(`{${comment}}`);
    for (const variation of node.variations) {
      words.push('(');
      writeLine(variation, words, writing);
      words.push(')');
    }
    interrupted = node.nags.length > 0 || node.comments.length > 0 || node.variations.length > 0;
  }
}

function moveText(node: MoveToWrite, writing: Writing): string {
  const move = writing.resolved.get(node);
  if (!move) return node.text;
  const written = readMoveToken(node.text);
  const strength = 'strength' in written && written.strength !== null ? written.strength : '';
  return writeMove(move, writing.style) + strength;
}

/** A move with all its landings: `c3-d4`, `c3:e5:g7`, numbered `22-18`, `22x15x8`. */
export function writeMove(move: Move, style: SquareStyle): string {
  const separator = !isCapture(move) ? '-' : style === 'numeric' ? 'x' : ':';
  return [move.from, ...move.landings].map((square) => writeSquare(square, style)).join(separator);
}

/** The style of the file's first readable move; names when there is none. */
function squareStyle(line: LineToWrite): SquareStyle {
  for (const node of line.moves) {
    const written = readMoveToken(node.text);
    if ('style' in written) return written.style;
  }
  return 'algebraic';
}

function escape(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** Words joined by spaces, no line longer than the width (a longer word stands alone); `(` and `)` hug their contents. */
function wrap(words: readonly string[]): string {
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const glue = current === '' || current.endsWith('(') || word === ')' ? '' : ' ';
    if (current !== '' && current.length + glue.length + word.length > LINE_WIDTH) {
      lines.push(current);
      current = word;
    } else {
      current += glue + word;
    }
  }
  if (current !== '') lines.push(current);
  return lines.join('\n');
}
