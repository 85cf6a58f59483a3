import type { MigrationInterface, QueryRunner } from 'typeorm';
import { PAIR_BITS, WORD_PAIRS_FUNCTION } from './1767100000000-WordPairs.js';

/**
 * The word pairs of a whole batch of games in one query (docs/texts.md): `word_pairs_of(ids,
 * words)` gives each game that has any its pairs, made as `word_pairs` made them a game at a time —
 * each lexeme at a position with each lexeme at the next one, hashed, 16 bits kept, distinct and in
 * order. Called once a game, `word_pairs` ran a query of its own for each: about 30 µs a game on a
 * server even for five words, a tenth of the writer's whole statement for a batch of 1,000 games.
 * `word_pairs(tsvector)` stays (a phrase's pairs are made by it), now as the batch function of one
 * game, so the pairs have one definition. Nothing stored changes.
 */
export class WordPairsOfBatch1767300000000 implements MigrationInterface {
  name = 'WordPairsOfBatch1767300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(WORD_PAIRS_OF_FUNCTION);
    await db.query(`
      CREATE OR REPLACE FUNCTION word_pairs(words tsvector) RETURNS integer[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT coalesce((SELECT p.pairs FROM word_pairs_of(ARRAY[0::bigint], ARRAY[words]) p), '{}')
      $$`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(WORD_PAIRS_FUNCTION.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'));
    await db.query(`DROP FUNCTION word_pairs_of(bigint[], tsvector[])`);
  }
}

/** The pairs of each game of `ids` (the same place in `words` its words): no row for a game whose words stand nowhere next to each other. */
const WORD_PAIRS_OF_FUNCTION = `
  CREATE FUNCTION word_pairs_of(ids bigint[], words tsvector[]) RETURNS TABLE (game_id bigint, pairs integer[]) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    WITH at AS (
      SELECT g.id, w.lexeme, p FROM unnest(ids, words) AS g(id, words), unnest(g.words) w, unnest(w.positions) p
    )
    SELECT a.id, array_agg(DISTINCT hashtext(a.lexeme || ' ' || b.lexeme) & ${(1 << PAIR_BITS) - 1})
    FROM at a JOIN at b ON b.id = a.id AND b.p = a.p + 1
    GROUP BY a.id
  $$`;
