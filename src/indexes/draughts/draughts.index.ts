import { draughtsBytes, draughtsRowsFrom } from './draughts-rows.js';
import type { GameIndex, IndexDefinition } from '../game-index.js';

const index: GameIndex = {
  name: 'draughts',
  bytesOf: (reading) => draughtsBytes(reading.positions),
  rows: draughtsRowsFrom,
  remove: (ids) => `draughts AS (DELETE FROM game_draughts WHERE game_id = ANY(${ids}))`,
};

/** The squares of each draughts position of a game's main line, and what is ever on them: POST /patterns/games with family checkers. */
export const DRAUGHTS_INDEX: IndexDefinition = {
  name: 'draughts',
  summary: 'the men and kings on the squares of each draughts position: POST /patterns/games (family checkers)',
  takes: ['board'],
  tables: ['game_draughts'],
  open: () => index,
};
