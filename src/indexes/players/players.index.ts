import type { ReadResult } from '../../formats/format-reader.js';
import { playerNameKey } from '../../common/name-key.js';
import type { GameIndex, IndexDefinition } from '../game-index.js';

/** A reading's players as JSON, each with the key its name is searched by. */
function playersOf(reading: ReadResult): Readonly<Record<string, unknown>> {
  const players = (reading.analysis?.players ?? []).map((player) => ({ ...player, nameKey: player.name === null ? null : playerNameKey(player.name) }));
  return { players };
}

const index: GameIndex = {
  name: 'players',
  fields: 'players json',
  fieldsOf: playersOf,
  rows: (made) => `players AS (
         INSERT INTO game_players (game_id, seat, name, name_key, external_id, color, declared_points, points, captures, outcome, rating)
         SELECT m.id, p.seat, p.name, p."nameKey", p."externalId", p.color, p."declaredPoints", p.points, p.captures, p.outcome, p.rating
         FROM ${made} m, json_to_recordset(m.players) AS p(seat int, name text, "nameKey" text, "externalId" text, color text,
              "declaredPoints" double precision, points double precision, captures int, outcome text, rating text)
         RETURNING name_key
       ), names AS (
         -- From the rows just written: the players' JSON is read once.
         INSERT INTO player_names (name_key)
         SELECT DISTINCT name_key FROM players WHERE name_key IS NOT NULL
         ORDER BY 1
         ON CONFLICT (name_key) DO NOTHING
       )`,
  // A name no game has any more stays in player_names, where it finds no game.
  remove: (ids) => `players AS (DELETE FROM game_players WHERE game_id = ANY(${ids}))`,
};

/** The seats of a game (names, ids, colours, points, outcomes, ratings) and the names GET /players finds. */
export const PLAYERS_INDEX: IndexDefinition = {
  name: 'players',
  summary: "a game's seats (names, ids, colours, points, outcomes, ratings) and the names GET /players and ?player= find",
  takes: [],
  tables: ['game_players', 'player_names'],
  open: () => index,
};
