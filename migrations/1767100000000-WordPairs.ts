import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The word pairs of the texts index (docs/texts.md): per game, each two words that stand next to
 * each other in its texts, so that a phrase is looked up by its pairs in a GIN index instead of
 * reading the words of every game that holds its words. A pair is taken from the positions of
 * `game_words` itself, so that the pairs hold every adjacency a phrase can match there; a game whose
 * words stand nowhere next to each other has no row. A pair is kept as one of 65,536 numbers (the
 * hash of its two lexemes, {@link PAIR_BITS} bits): a game of 150 pairs holds a given number by
 * chance with odds of about 1 in 440 (the games a phrase's pairs find are checked after), and the
 * index stays small: most pairs of words are rare, and a GIN index of the pairs as text took 9 times
 * the size of the words' (20,000 games of 150 words drawn as the texts bench draws them).
 *
 * `word_pairs` is the one definition, used by the texts index's writer and here. The games stored
 * before get their pairs from their words ({@link fillWordPairs}, {@link FILL_STEP} ids a statement;
 * `npm run bench texts` prints its time per million games), then the GIN index is built.
 */
export class WordPairs1767100000000 implements MigrationInterface {
  name = 'WordPairs1767100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(WORD_PAIRS_FUNCTION);
    await db.query(`
      CREATE TABLE game_word_pairs (
        game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        pairs   integer[] NOT NULL
      )`);
    await fillWordPairs((sql, params) => db.query(sql, params));
    await db.query(`CREATE INDEX game_word_pairs_pairs ON game_word_pairs USING gin (pairs)`);
    // Most pairs are rare: without many statistics the planner would guess any pair in hundreds of games.
    await db.query(`ALTER TABLE game_word_pairs ALTER COLUMN pairs SET STATISTICS 1000`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_word_pairs`);
    await db.query(`DROP FUNCTION word_pairs(tsvector)`);
  }
}

/** How many bits of a pair's hash are kept (the query's pairs are made by the same function). */
export const PAIR_BITS = 16;

/**
 * The pairs of a game's words: each lexeme at a position with each lexeme at the next position,
 * joined by a space (which no lexeme of the parser holds), hashed, {@link PAIR_BITS} bits kept;
 * distinct, in order.
 */
export const WORD_PAIRS_FUNCTION = `
  CREATE FUNCTION word_pairs(words tsvector) RETURNS integer[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT hashtext(a.lexeme || ' ' || b.lexeme) & ${(1 << PAIR_BITS) - 1}), '{}')
    FROM (SELECT w.lexeme, p FROM unnest(words) w, unnest(w.positions) p) a
    JOIN (SELECT w.lexeme, p FROM unnest(words) w, unnest(w.positions) p) b ON b.p = a.p + 1
  $$`;

/** The pairs of the words of the games stored before the table, {@link FILL_STEP} ids a statement. */
export async function fillWordPairs(query: (sql: string, params?: unknown[]) => Promise<unknown[]>): Promise<void> {
  const [{ first, last }] = (await query(`SELECT min(game_id) AS first, max(game_id) AS last FROM game_words`)) as { first: string | null; last: string | null }[];
  if (first === null || last === null) return;
  for (let from = Number(first); from <= Number(last); from += FILL_STEP) await query(FILL_WORD_PAIRS, [from, from + FILL_STEP - 1]);
}

/** The pairs of the words of the games with ids $1 to $2. */
const FILL_WORD_PAIRS = `
  INSERT INTO game_word_pairs (game_id, pairs)
  SELECT w.game_id, p.pairs FROM game_words w, word_pairs(w.words) p(pairs) WHERE w.game_id BETWEEN $1 AND $2 AND cardinality(p.pairs) > 0`;

/** Game ids a statement of the fill covers (a few seconds of work on the embedded database). */
const FILL_STEP = 10_000;
