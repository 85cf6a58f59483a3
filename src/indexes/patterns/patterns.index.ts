import { PATTERN_ROW_FIELDS, patternBytes, patternRowFields, patternRowsFrom } from './pattern-rows.js';
import type { GameIndex, IndexDefinition } from '../game-index.js';

const index: GameIndex = {
  name: 'patterns',
  fields: PATTERN_ROW_FIELDS,
  fieldsOf: (reading) => patternRowFields(reading.analysis),
  bytesOf: (reading) => patternBytes(reading.positions),
  rows: patternRowsFrom,
  remove: (ids) => `patterns AS (DELETE FROM game_patterns WHERE game_id = ANY(${ids}))`,
};

/** The points each player ever held and the board's changes, for Go and Dots: GET /patterns. */
export const PATTERNS_INDEX: IndexDefinition = {
  name: 'patterns',
  summary: 'the board of each Go and Dots game, change by change: GET /patterns',
  takes: ['board'],
  tables: ['game_patterns'],
  open: () => index,
};
