import type { ReadResult } from '../../formats/format-reader.js';
import type { GameIndex, IndexDefinition } from '../game-index.js';
import { TEXT_SEARCH_CONFIG, TEXT_SEPARATOR, joinedTexts } from './text-query.js';

/** One text of a game as `game_texts` keeps it: its place among the game's texts, its ply and its words. */
interface TextRow {
  readonly n: number;
  readonly ply: number;
  readonly text: string;
}

/**
 * What a reading says in words: first the game's own texts the analysis names for every format (the
 * event and the players' names, as one text at ply 0), then what the plugin found written in the file
 * (its comments at their plies, the game's comment and place at ply 0).
 */
export function textsOf(reading: ReadResult): readonly TextRow[] {
  const analysis = reading.analysis;
  if (!analysis) return [];
  const own = [analysis.facts.event, ...analysis.players.map((player) => player.name)].filter((text): text is string => text !== null && text.trim() !== '');
  const written = [...(own.length > 0 ? [{ ply: 0, text: own.join(' · ') }] : []), ...(analysis.texts ?? [])];
  return written.map((text, n) => ({ n, ply: text.ply, text: text.text }));
}

const index: GameIndex = {
  name: 'texts',
  fields: 'texts json, texts_joined text',
  fieldsOf: (reading) => {
    const texts = textsOf(reading);
    return texts.length === 0 ? {} : { texts, texts_joined: joinedTexts(texts.map((text) => text.text)) };
  },
  rows: (made) => `texts AS (
         INSERT INTO game_texts (game_id, n, ply, body)
         SELECT m.id, t.n, t.ply, t.text
         FROM ${made} m, json_to_recordset(m.texts) AS t(n int, ply int, text text)
         WHERE m.texts IS NOT NULL
       ), words AS (
         INSERT INTO game_words (game_id, words)
         SELECT m.id, ts_delete(to_tsvector('${TEXT_SEARCH_CONFIG}', m.texts_joined), '${TEXT_SEPARATOR}')
         FROM ${made} m WHERE m.texts_joined IS NOT NULL
         RETURNING game_id, words
       ), pairs AS (
         -- The batch's pairs in one query (a query a game took most of the batch's text work).
         INSERT INTO game_word_pairs (game_id, pairs)
         SELECT p.game_id, p.pairs FROM word_pairs_of((SELECT array_agg(game_id) FROM words), (SELECT array_agg(words) FROM words)) p
       )`,
  remove: (ids) => `texts AS (DELETE FROM game_texts WHERE game_id = ANY(${ids})),
       words AS (DELETE FROM game_words WHERE game_id = ANY(${ids})),
       pairs AS (DELETE FROM game_word_pairs WHERE game_id = ANY(${ids}))`,
};

/**
 * What each game's file says in words — its comments at their plies, the game's comment, place,
 * event and players — in full text: GET /games?text= and the hits it lists.
 */
export const TEXTS_INDEX: IndexDefinition = {
  name: 'texts',
  summary: "what a game's file says in words (comments at their plies, the game's own texts), in full text: GET /games?text=",
  takes: [],
  tables: ['game_texts', 'game_words', 'game_word_pairs'],
  open: () => index,
};
