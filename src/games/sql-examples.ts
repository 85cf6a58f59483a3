import { createHash } from 'node:crypto';
import type { ReadResult } from '../formats/format-reader.js';
import type { NewUpload } from '../uploads/uploads.repository.js';
import type { NewGame } from './games-write.repository.js';

/**
 * Example arguments for the repositories' @GenerateSql decorators (src/database/sql.ts): games
 * written out here as the plugins would read them, no file read. Before it calls the examples,
 * `npm run sql` (scripts/sql-files.ts) stores the rows they name, always in the same order on a
 * new database: so the ids are those of {@link EXAMPLE}.
 */
export const EXAMPLE = {
  /** Games 1 and 2: Go games between Lee Sedol and Gu Li ({@link SEEDED_GAMES}). */
  game: '1',
  otherGame: '2',
  /** Game 3: stored, not indexed; only GamesWriteRepository.delete's example removes it. */
  gameToDelete: '3',
  /** Upload 1: a kept file of two games, game 4 and a duplicate of game 1. */
  upload: '1',
  gameInUpload: '4',
  /** Import 1, running. */
  import: 1,
  /** The Dots server's account `alice`, and her game 1. */
  login: 'alice',
  dotsGame: 1,
} as const;

/** Games 1 to 3 of {@link EXAMPLE}, stored one by one. */
export const SEEDED_GAMES: readonly NewGame[] = [
  exampleGame('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[pd])'),
  exampleGame('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[dp])'),
  exampleGame('some notes', { stored: true }),
];

/** A file of two games kept whole: a Go game of these bytes (text), then a copy of game 1's bytes. */
export function exampleUpload(firstGame: string): NewUpload {
  const first = exampleGame(firstGame);
  const twin = SEEDED_GAMES[0];
  const bytes = Buffer.concat([first.file.bytes, twin.file.bytes]);
  return {
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mediaType: 'application/x-go-sgf',
    filename: 'collection.sgf',
    publisher: 'SGF',
    version: 'FF4-Go',
    owner: 'club-a',
    games: [
      { start: 0, end: first.file.bytes.length, game: first },
      { start: first.file.bytes.length, end: bytes.length, game: twin },
    ],
  };
}

/** Upload 1 of {@link EXAMPLE}, kept after the games. */
export const SEEDED_UPLOAD: NewUpload = exampleUpload('(;GM[1]PB[Lee Sedol]PW[Gu Li];B[qq])');

/** A Go game's reading as the SGF plugin gives it: two players, the facts search goes by, a problem. */
export function exampleRecord(black: string, white: string, datePlayed: string): ReadResult {
  return {
    publisher: 'SGF',
    version: 'FF4-Go',
    header: `PB[${black}]PW[${white}]DT[${datePlayed}]`,
    body: ';B[pd];W[dp]',
    family: 'go',
    charset: 'utf-8',
    spans: { header: null, body: null },
    analysis: {
      players: [
        { seat: 0, name: black, externalId: null, color: 'black', declaredPoints: null, points: null, rating: '9p', captures: 0, outcome: 'won' },
        { seat: 1, name: white, externalId: null, color: 'white', declaredPoints: null, points: null, rating: '9p', captures: 0, outcome: 'lost' },
      ],
      moveCount: 2,
      result: 'white resigned',
      verdict: { legal: true, consistent: false, problems: [{ code: 'cache.result', ply: null, message: 'an example problem' }] },
      facts: { boardWidth: 19, boardHeight: 19, datePlayed, event: 'Example Cup', rules: 'Japanese', ending: 'resignation', margin: null },
      details: { komi: 6.5 },
      replay: [],
    },
  };
}

/** A game to store: these bytes (text), read as {@link exampleRecord} unless `stored` (no plugin read it). */
export function exampleGame(text: string, options: { stored?: boolean } = {}): NewGame {
  const bytes = Buffer.from(text);
  const record: ReadResult = options.stored
    ? { publisher: null, version: null, header: null, body: null, family: null, charset: 'utf-8', spans: { header: null, body: null }, notIndexedReason: 'no format recognised' }
    : exampleRecord('Lee Sedol', 'Gu Li', '2004-05-01');
  return {
    file: { bytes },
    sha256: createHash('sha256').update(bytes).digest('hex'),
    mediaType: options.stored ? 'application/octet-stream' : 'application/x-go-sgf',
    filename: options.stored ? 'notes.bin' : 'example.sgf',
    owner: options.stored ? null : 'club-a',
    record,
  };
}
