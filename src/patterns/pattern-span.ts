import { ProblemException } from '../common/problem-codes.js';
import { badCursor, checkedAsParameters, checkedInCursor, shown } from '../catalog/cursor.js';
import { FIRST, SECOND, firstMatch, firstMatchWithin, readSequence, sequencePlacements } from '../formats/families/patterns.js';
import type { Anchor, BoardChanges, MatchConditions, Pattern, PatternMatch, PatternSequence, SequencePlacement } from '../formats/families/patterns.js';
import { PatternSearchBody } from './dto/pattern-query.dto.js';
import type { PatternToMove } from './dto/pattern-query.dto.js';

/*
 * A pattern search's span of plies, side to move and numbered moves (docs/patterns.md): read from
 * the body, checked, carried by the cursor, and turned into the placements and the conditions the
 * matcher (src/rules/pattern-span.ts) takes.
 */

/** The body's fields of a span, as given (only those given). */
export interface PatternSpan {
  readonly plyFrom?: number;
  readonly plyTo?: number;
  readonly toMove?: PatternToMove;
  readonly sequence?: readonly string[];
  readonly strict?: boolean;
}

const SPAN_KEYS = ['plyFrom', 'plyTo', 'toMove', 'sequence', 'strict'] as const;

/** The span the body asks for, or undefined when it asks for none (a search as before); 400 `request.invalid` for a span that is none. */
export function spanOf(body: PatternSpan): PatternSpan | undefined {
  const span: Record<string, unknown> = {};
  for (const key of SPAN_KEYS) if (body[key] !== undefined) span[key] = body[key];
  const { plyFrom, plyTo, sequence, strict } = span as PatternSpan;
  if (plyFrom !== undefined && plyTo !== undefined && plyFrom > plyTo) {
    throw new ProblemException(400, 'request.invalid', `plyFrom (${plyFrom}) is after plyTo (${plyTo}): the span of plies is empty`);
  }
  if (strict === true && sequence === undefined) {
    throw new ProblemException(400, 'request.invalid', '`strict` is for a sequence: give `sequence` rows with the numbered moves, or leave `strict` out');
  }
  if (strict === false) delete span.strict;
  return Object.keys(span).length === 0 ? undefined : span;
}

/** The numbered moves of the span's sequence, or null without one; 400 `pattern.invalid` saying where a sequence is wrong. */
export function sequenceOf(pattern: Pattern, span: PatternSpan | undefined): PatternSequence | null {
  if (span?.sequence === undefined) return null;
  const rows = span.sequence;
  const read = readSequence(pattern, rows);
  if ('cells' in read) return read;
  const where = `row ${read.row! + 1}, column ${read.column! + 1} of the sequence`;
  switch (read.reason) {
    case 'size':
      throw new ProblemException(
        400,
        'pattern.invalid',
        rows.length !== pattern.height
          ? `the sequence has ${rows.length} rows and the pattern ${pattern.height}: give a row of the sequence for each row of the pattern`
          : `row ${read.row! + 1} of the sequence is ${rows[read.row!].length} cells long and the pattern's rows ${pattern.width}`,
      );
    case 'character':
      throw new ProblemException(400, 'pattern.invalid', `${where} is ${JSON.stringify(rows[read.row!][read.column!])}: a cell of the sequence is a move's number, 1 to 9, or . for none`);
    case 'repeated':
      throw new ProblemException(400, 'pattern.invalid', `${where} numbers a move ${read.digit} again: each number is one move`);
    case 'gap':
      throw new ProblemException(400, 'pattern.invalid', `the sequence has no move ${read.digit} but a later one: number the moves 1, 2, 3… without a gap`);
    case 'cell': {
      const cell = pattern.cells[read.row! * pattern.width + read.column!];
      throw new ProblemException(
        400,
        'pattern.invalid',
        `${where} numbers move ${read.digit} on a ${cell < 0 ? '*' : '.'} cell of the pattern: a numbered move's cell is X or O, the colour of its stone`,
      );
    }
  }
}

/** What the matcher is asked besides the placements: null for a search without a span (the matcher of all plies). */
export function conditionsOf(span: PatternSpan | undefined): MatchConditions | null {
  if (span === undefined) return null;
  return {
    from: span.plyFrom ?? 0,
    to: span.plyTo ?? Infinity,
    toMove: span.toMove === undefined ? null : span.toMove === 'black' ? FIRST : SECOND,
    strict: span.strict === true,
  };
}

/** The placements of the pattern on a board, with their numbered moves when there is a sequence (told apart by their colours when a side to move is asked). */
export function placedWithin(pattern: Pattern, sequence: PatternSequence | null, width: number, height: number, anchor: Anchor, swapColors: boolean, conditions: MatchConditions | null): SequencePlacement[] {
  return sequencePlacements(pattern, sequence, width, height, anchor, swapColors, conditions?.toMove != null);
}

/** The first match of the placements on a line, within the conditions when there are any. */
export function matchWithin(board: BoardChanges, candidates: readonly SequencePlacement[], conditions: MatchConditions | null): PatternMatch | null {
  return conditions === null ? firstMatch(board, candidates) : firstMatchWithin(board, candidates, conditions);
}

/** The span as a cursor carries it. */
export function spanCursor(span: PatternSpan | undefined): { s?: PatternSpan } {
  return span === undefined ? {} : { s: span };
}

/** A cursor's span (its `s`), checked as the body's fields are: 400 `request.bad_cursor` for anything else. */
export function spanFromCursor(value: unknown): PatternSpan | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badCursor(`its span ("s") is ${shown(value)}, not a JSON object`);
  const other = Object.keys(value).find((key) => !(SPAN_KEYS as readonly string[]).includes(key));
  if (other !== undefined) throw badCursor(`its span holds ${shown(other)}, which no span has`);
  const read = checkedAsParameters(PatternSearchBody, value as Record<string, unknown>, 'its span');
  const span = checkedInCursor(() => spanOf(read));
  if (span === undefined) throw badCursor('its span ("s") is empty');
  return span;
}
