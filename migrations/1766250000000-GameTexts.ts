import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The texts index (src/indexes/texts, docs/search-text.md): what a game's file says in words.
 * `game_texts` keeps each text (a comment at its ply; the game's own texts at ply 0) for the hits a
 * search shows; `game_words` keeps one tsvector a game, all its texts together, so that every term
 * of a query may be found in a different comment. One text search configuration for every language:
 * `russian`, which stems Cyrillic words as Russian and words in Latin letters as English, and keeps
 * words of other scripts as written.
 *
 * New tables only: games stored before them get their rows from `POST /reindex?indexes=texts`.
 */
export class GameTexts1766250000000 implements MigrationInterface {
  name = 'GameTexts1766250000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE game_texts (
        game_id bigint NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        n       int NOT NULL,
        ply     int NOT NULL CHECK (ply >= 0),
        body    text NOT NULL,
        PRIMARY KEY (game_id, n)
      )`);
    await db.query(`
      CREATE TABLE game_words (
        game_id bigint PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        words   tsvector NOT NULL
      )`);
    await db.query(`CREATE INDEX game_words_words ON game_words USING gin (words)`);
    // Words are many and most are rare: the default statistics would guess any rare word at hundreds of games.
    await db.query(`ALTER TABLE game_words ALTER COLUMN words SET STATISTICS 1000`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE game_words`);
    await db.query(`DROP TABLE game_texts`);
  }
}
