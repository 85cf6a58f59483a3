import { PositionPostingsRepository } from './postings.repository.js';
import { PostingsCompactor } from './postings-compactor.js';
import { GatheredPostings } from './postings.js';
import { OPENING_ENTRIES, POSITION_ROW_FIELDS, gatherLaterBuckets, positionEntries, positionRowFields, positionRowsFrom } from './position-rows.js';
import type { GameIndex, IndexContext, IndexDefinition } from '../game-index.js';

/** The position index as opened: its statements, and the postings' repository and merges (for the benches and tests). */
export interface PositionsIndex extends GameIndex {
  readonly postings: PositionPostingsRepository;
  readonly compactor: PostingsCompactor;
}

function open({ dataSource, embedded }: IndexContext): PositionsIndex {
  const postings = new PositionPostingsRepository(dataSource, embedded);
  const compactor = new PostingsCompactor(postings);
  return {
    name: 'positions',
    postings,
    compactor,
    fields: POSITION_ROW_FIELDS,
    fieldsOf: (reading) => positionRowFields(reading.positions, reading.analysis),
    bytesOf: (reading) => positionEntries(reading.positions),
    rows: positionRowsFrom,
    // The buckets of the later positions, one run of postings a write's run (a collection's games together).
    openRun: () => {
      const gathered = new GatheredPostings();
      return {
        add: (games) => {
          for (const game of games) gatherLaterBuckets(gathered, game.id, game.reading.positions);
        },
        write: (query) => postings.writeRun(gathered, query),
      };
    },
    // Its postings are in runs written before, which are only ever merged: they are marked dead in
    // the runs numbered so far (those of a game with later positions only), and the merges drop them.
    remove: (ids) => `positions AS (
         DELETE FROM game_positions WHERE game_id = ANY(${ids}) RETURNING game_id, plies
       ), positions_removed AS (
         INSERT INTO position_removals (game_id, before_run)
         SELECT p.game_id, (SELECT coalesce(max(run), 0) + 1 FROM position_runs) FROM positions p WHERE p.plies >= ${OPENING_ENTRIES}
         ON CONFLICT (game_id) DO UPDATE SET before_run = EXCLUDED.before_run
       )`,
    upkeep: compactor,
  };
}

/**
 * The positions of each game's main line (src/indexes/positions/position-rows.ts): a row per game
 * with its keys, the openings' counts, and the later positions' postings in runs merged in the
 * background. GET /positions/{key}, the explorer and the position cursor read it.
 */
export const POSITIONS_INDEX: IndexDefinition = {
  name: 'positions',
  summary: 'the positions of each main line: GET /positions/{key}/games, the explorer and their counts',
  takes: ['keys'],
  tables: ['game_positions', 'position_counts', 'opening_positions', 'position_runs', 'position_postings', 'position_removals'],
  // Kept by triggers on game_positions (migrations 1765000000000 and 1765800000000): a statement's rows counted at
  // once, a deleted row's openings removed. The openings of the rows written are the writer's (1767500000000).
  triggers: ['position_counts_added', 'position_counts_removed', 'opening_positions_removed'],
  open,
};
