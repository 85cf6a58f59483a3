import type { ReadResult } from '../../formats/format-reader.js';
import { playerNameKey } from '../../common/name-key.js';
import type { GameIndex, IndexDefinition } from '../game-index.js';

/** The fields {@link factsOf} writes, as a record definition (problems and details stay JSON text). */
const FIELDS = `move_count int, result text, legal boolean, consistent boolean, problems json, details json,
  board_width int, board_height int, date_played date, event text, event_key text, rules text, ending text, margin double precision`;

/**
 * A reading's analysis as `game_analyses` keeps it: its columns (no move count: no analysis), its
 * problems and details (kept as the compact JSON text they are written in).
 */
function factsOf(reading: ReadResult): Readonly<Record<string, unknown>> {
  const analysis = reading.analysis;
  if (!analysis) return { move_count: null };
  const facts = analysis.facts;
  return {
    move_count: analysis.moveCount,
    result: analysis.result,
    legal: analysis.verdict.legal,
    consistent: analysis.verdict.consistent,
    problems: analysis.verdict.problems,
    details: analysis.details,
    board_width: facts.boardWidth,
    board_height: facts.boardHeight,
    date_played: facts.datePlayed,
    event: facts.event,
    event_key: facts.event === null ? null : playerNameKey(facts.event),
    rules: facts.rules,
    ending: facts.ending ?? null,
    margin: facts.margin ?? null,
  };
}

const index: GameIndex = {
  name: 'facts',
  fields: FIELDS,
  fieldsOf: factsOf,
  rows: (made) => `analysis AS (
         INSERT INTO game_analyses (game_id, move_count, result, legal, consistent, problems, details,
                                    board_width, board_height, date_played, event, event_key, rules, ending, margin)
         SELECT m.id, m.move_count, m.result, m.legal, m.consistent, m.problems, m.details,
                m.board_width, m.board_height, m.date_played, m.event, m.event_key, m.rules, m.ending, m.margin
         FROM ${made} m WHERE m.move_count IS NOT NULL
       )`,
  remove: (ids) => `analysis AS (DELETE FROM game_analyses WHERE game_id = ANY(${ids}))`,
};

/**
 * The game's analysis: verdict, problems, details and the facts search filters by (board, date,
 * event, rules, ending, margin). Every route that shows a game's analysis reads it: always on.
 */
export const FACTS_INDEX: IndexDefinition = {
  name: 'facts',
  summary: "a game's analysis: verdict, problems, details and the facts GET /games filters by",
  takes: [],
  tables: ['game_analyses'],
  open: () => index,
};
