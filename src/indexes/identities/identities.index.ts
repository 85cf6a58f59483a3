import { IDENTITY_ROW_FIELDS, identityRowFields, identityRowsFrom, identitySequence } from './identity-rows.js';
import type { GameIndex, IndexDefinition } from '../game-index.js';

const index: GameIndex = {
  name: 'identities',
  fields: IDENTITY_ROW_FIELDS,
  fieldsOf: (reading) => identityRowFields(reading.positions, reading.analysis),
  bytesOf: (reading) => identitySequence(reading.positions, reading.analysis),
  rows: identityRowsFrom,
  remove: (ids) => `identities AS (DELETE FROM game_identities WHERE game_id = ANY(${ids}))`,
};

/** Each game's move sequence in a normal orientation and its hashes: the same game across files (GET /games/{id}/same, sameAs, copies). */
export const IDENTITIES_INDEX: IndexDefinition = {
  name: 'identities',
  summary: 'one game across files: GET /games/{id}/same, sameAs and copyOf',
  takes: ['identity'],
  tables: ['game_identities'],
  open: () => index,
};
