import type { FormatError } from '../../../core/errors.js';
import { ReadLimits, pliesExceeded, variationDepthExceeded } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';
import { Lexer, Token } from '../../syntaxes/pdn/lexer.js';

/**
 * One PDN game as written: its tag pairs, its move text as a tree of lines (the main line and the
 * variations hung on the moves they replace), and its terminator.
 */

export interface PdnTag {
  readonly name: string;
  readonly value: string;
  readonly offset: number;
  readonly valueOffset: number;
}

export interface MoveNode {
  /** The token as written (`c3-d4`, `22x13!`, or garbage). */
  readonly text: string;
  readonly offset: number;
  /** The ply this move would be in the game (a variation's first move has the ply of the move it replaces). */
  readonly ply: number;
  readonly nags: string[];
  readonly comments: string[];
  /** Alternatives to this move, each a line starting from the position before it. */
  readonly variations: Line[];
}

export interface Line {
  readonly moves: MoveNode[];
  /** Comments before the line's first move. */
  readonly comments: string[];
}

export interface PdnGame {
  readonly tags: readonly PdnTag[];
  readonly main: Line;
  readonly terminator: { readonly text: string; readonly offset: number } | null;
  /** Moves written in the whole tree (main line and every variation). */
  readonly plies: number;
  readonly variationCount: number;
  /** Where the tag section and the move text lie in the text (end exclusive), null when absent. */
  readonly header: { readonly start: number; readonly end: number } | null;
  readonly body: { readonly start: number; readonly end: number } | null;
}

/** Tags written in words about the whole game: where it was played, who annotated it. */
const TEXT_TAGS = ['Site', 'Annotator'];

/**
 * What the game writes in words, for the full-text index (unbounded: the caller bounds it): the
 * values of the Site and Annotator tags at ply 0, then the comments of the move text in file order —
 * before the first move at ply 0, after a move at its ply, before a variation's first move at the
 * ply before the move it replaces, every variation at the plies of its moves.
 */
export function* pdnTexts(game: PdnGame): Generator<{ ply: number; text: string }> {
  for (const tag of game.tags) if (TEXT_TAGS.includes(tag.name)) yield { ply: 0, text: tag.value };
  // Depth first in file order, iteratively: what is still to come, the next on top.
  type Item = { readonly text: string; readonly ply: number } | { readonly line: Line; readonly before: number };
  const pending: Item[] = [{ line: game.main, before: 0 }];
  while (pending.length > 0) {
    const item = pending.pop()!;
    if ('text' in item) {
      yield item;
      continue;
    }
    const { line, before } = item;
    for (let m = line.moves.length - 1; m >= 0; m--) {
      const move = line.moves[m];
      for (let v = move.variations.length - 1; v >= 0; v--) pending.push({ line: move.variations[v], before: move.ply - 1 });
      for (let c = move.comments.length - 1; c >= 0; c--) pending.push({ text: move.comments[c], ply: move.ply });
    }
    for (let c = line.comments.length - 1; c >= 0; c--) pending.push({ text: line.comments[c], ply: before });
  }
}

/**
 * Parses the game that starts at the lexer's position and stops after its terminator, or before the
 * tag section of a next game, or at the end of the text. Bounds are enforced while parsing.
 */
export function parseGame(lexer: Lexer, limits: ReadLimits): PdnGame {
  return new GameParser(lexer, limits).game();
}

class GameParser {
  private plies = 0;
  private variationCount = 0;
  private terminator: PdnGame['terminator'] = null;
  private bodyStart = -1;
  private bodyEnd = -1;

  constructor(
    private readonly lexer: Lexer,
    private readonly limits: ReadLimits,
  ) {}

  game(): PdnGame {
    const tags: PdnTag[] = [];
    let headerStart = -1;
    let headerEnd = -1;
    // Comments before the tag section (a file's or game's preface) belong to the game's main line.
    const preface: string[] = [];
    while (this.lexer.peek()?.kind === 'comment') preface.push((this.lexer.next() as { text: string }).text.trim());
    for (let token = this.lexer.peek(); token?.kind === 'tag'; token = this.lexer.peek()) {
      this.lexer.next();
      const name = token.name;
      if (tags.some((tag) => tag.name === name)) throw this.lexer.error(`the tag ${name} appears twice`, token.offset);
      tags.push({ name, value: token.value, offset: token.offset, valueOffset: token.valueOffset });
      if (headerStart < 0) headerStart = token.offset;
      headerEnd = token.end;
    }
    const main = this.line(0, 1, null);
    main.comments.unshift(...preface);
    return {
      tags,
      main,
      terminator: this.terminator,
      plies: this.plies,
      variationCount: this.variationCount,
      header: headerStart < 0 ? null : { start: headerStart, end: headerEnd },
      body: this.bodyStart < 0 ? null : { start: this.bodyStart, end: this.bodyEnd },
    };
  }

  /** A line from ply `firstPly`; a variation (depth > 0) ends at its ")", the main line at the terminator. */
  private line(depth: number, firstPly: number, open: Token | null): Line {
    const line: Line = { moves: [], comments: [] };
    const last = (): MoveNode | undefined => line.moves[line.moves.length - 1];
    for (;;) {
      const token = this.lexer.peek();
      if (token === null) {
        if (open) throw this.fail('the variation "(" is never closed with ")"', open.offset);
        return line;
      }
      if (token.kind === 'tag') {
        if (open) throw this.fail('a tag inside a variation: the variation "(" is never closed', open.offset);
        // The tag section of the next game: this one ends without a terminator.
        return line;
      }
      this.lexer.next();
      this.extendBody(token);
      switch (token.kind) {
        case 'comment':
          (last()?.comments ?? line.comments).push(token.text.trim());
          break;
        case 'number':
          break;
        case 'nag':
          last()?.nags.push(token.text);
          break;
        case 'result':
          // A terminator ends the game; one written inside a variation says nothing and is skipped.
          if (depth === 0) {
            this.terminator = { text: token.text, offset: token.offset };
            return line;
          }
          break;
        case 'open': {
          const replaced = last();
          if (!replaced) throw this.fail('a variation "(" must follow the move it replaces', token.offset);
          if (depth + 1 > this.limits.maxVariationDepth) throw variationDepthExceeded(this.limits, locate(this.lexer.text, token.offset));
          this.variationCount++;
          replaced.variations.push(this.line(depth + 1, replaced.ply, token));
          break;
        }
        case 'close':
          if (!open) throw this.fail('")" closes no variation', token.offset);
          return line;
        case 'move':
          if (this.plies >= this.limits.maxPlies) throw pliesExceeded(this.limits, locate(this.lexer.text, token.offset));
          this.plies++;
          line.moves.push({ text: token.text, offset: token.offset, ply: firstPly + line.moves.length, nags: [], comments: [], variations: [] });
          break;
      }
    }
  }

  private extendBody(token: Token): void {
    if (this.bodyStart < 0) this.bodyStart = token.offset;
    this.bodyEnd = token.end;
  }

  private fail(message: string, offset: number): FormatError {
    return this.lexer.error(message, offset);
  }
}
