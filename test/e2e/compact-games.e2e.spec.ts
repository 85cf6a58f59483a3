import { getDataSourceToken } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { post, startArchiveWrittenBefore, TestArchive } from '../support/archive-harness.js';

/**
 * CompactGames on an archive written before it: formats and families become lookups, the usual
 * media type is left out, files of at most 256 bytes move into their games row, and everything the
 * API shows of each game stays what it was. The rows are written by hand in the layout before.
 */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));
const sha = (bytes: Buffer): Buffer => createHash('sha256').update(bytes).digest();

// Peg boards of 101, 130 and 132 bytes; a GoFans example of more than 256; an unreadable note.
const SQUARE = fixture('fixtures/realdata/peg/v2_head/6x6 Square.brd');
const ENGLISH = fixture('fixtures/realdata/peg/v2_head/English Standard Board.brd');
const DIAGONAL = fixture('fixtures/realdata/peg/v2_head/D.brd');
const GOFANS = fixture('fixtures/gofans-examples/ex_2.2.xml');
const NOTE = Buffer.from('no format reads this\n');
const COLLECTION = Buffer.from('(;GM[1]SZ[9];B[aa])(;GM[1]SZ[9];B[bb])');

interface OldGame {
  readonly bytes: Buffer;
  readonly publisher: string | null;
  readonly version: string | null;
  readonly family: string | null;
  readonly mediaType: string;
  readonly filename: string;
}

const PEG = { publisher: 'ViaThinkSoft Peg Solitaire', version: '2', family: 'peg-solitaire' };
const OLD: Record<string, OldGame> = {
  square: { bytes: SQUARE, ...PEG, mediaType: 'text/plain; charset=utf-8', filename: 'square.brd' },
  english: { bytes: ENGLISH, ...PEG, mediaType: 'text/plain; charset=utf-8', filename: 'english.brd' },
  // Sent with a media type of its own: the row keeps it.
  diagonal: { bytes: DIAGONAL, ...PEG, mediaType: 'application/x-peg-board', filename: 'd.brd' },
  gofans: { bytes: GOFANS, publisher: 'GoFans', version: '2.2', family: 'go', mediaType: 'application/xml', filename: 'ex.xml' },
  note: { bytes: NOTE, publisher: null, version: null, family: null, mediaType: 'text/plain', filename: 'note.txt' },
};

describe('CompactGames on an archive written before it', () => {
  let archive: TestArchive;
  let db: DataSource;
  const ids: Record<string, number> = {};
  const BEFORE = MIGRATIONS.slice(0, MIGRATIONS.findIndex((migration) => migration.name === 'CompactGames1764800000000'));

  beforeAll(async () => {
    archive = await startArchiveWrittenBefore(writeOldArchive);
    db = archive.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(() => archive?.close());

  async function writeOldArchive(url: string): Promise<void> {
    const old = new DataSource({ type: 'postgres', url, migrations: BEFORE, migrationsTableName: 'migrations' });
    await old.initialize();
    try {
      await old.runMigrations({ transaction: 'each' });
      for (const [name, game] of Object.entries(OLD)) {
        const [row] = await old.query(
          `WITH g AS (
             INSERT INTO games (publisher, version, family, status, status_reason, sha256, size, media_type, filename)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id
           ), f AS (INSERT INTO game_files (game_id, raw) SELECT id, $10 FROM g)
           SELECT id FROM g`,
          [
            game.publisher,
            game.version,
            game.family,
            game.publisher === null ? 'stored' : 'indexed',
            game.publisher === null ? 'text that no format plugin recognises' : null,
            sha(game.bytes),
            game.bytes.length,
            game.mediaType,
            game.filename,
            game.bytes,
          ],
        );
        ids[name] = Number(row.id);
      }
      // The second game of a kept two-game SGF file: its bytes are its range of the file.
      const [upload] = await old.query(
        `INSERT INTO uploads (sha256, size, media_type, filename, publisher, version, raw) VALUES ($1, $2, 'application/x-go-sgf', 'two.sgf', 'SGF', 'FF4-Go', $3) RETURNING id`,
        [sha(COLLECTION), COLLECTION.length, COLLECTION],
      );
      const second = COLLECTION.subarray(19);
      const [game] = await old.query(
        `INSERT INTO games (publisher, version, family, status, sha256, size, media_type, filename, upload_id, upload_start, upload_end)
         VALUES ('SGF', 'FF4-Go', 'go', 'indexed', $1, $2, 'application/x-go-sgf', 'two.sgf', $3, 19, $4) RETURNING id`,
        [sha(second), second.length, upload.id, COLLECTION.length],
      );
      ids.inUpload = Number(game.id);
    } finally {
      await old.destroy();
    }
  }

  const gameJson = async (id: number) => (await fetch(`${archive.baseUrl}/games/${id}`)).json();
  const rawOf = async (id: number) => Buffer.from(await (await fetch(`${archive.baseUrl}/games/${id}/raw`)).arrayBuffer());

  it('shows every game as before: format, family, status, media type, bytes', async () => {
    for (const [name, game] of Object.entries(OLD)) {
      const shown = await gameJson(ids[name]);
      expect([name, shown]).toMatchObject([
        name,
        {
          publisher: game.publisher,
          version: game.version,
          family: game.family,
          status: game.publisher === null ? 'stored' : 'indexed',
          mediaType: game.mediaType,
          filename: game.filename,
          size: game.bytes.length,
          sha256: sha(game.bytes).toString('hex'),
        },
      ]);
      expect([name, await rawOf(ids[name])]).toEqual([name, game.bytes]);
    }
    expect(await rawOf(ids.inUpload)).toEqual(Buffer.from('(;GM[1]SZ[9];B[bb])'));
    expect(await gameJson(ids.inUpload)).toMatchObject({ publisher: 'SGF', version: 'FF4-Go', family: 'go', mediaType: 'application/x-go-sgf' });
  });

  it('keeps each format once, with the media type most of its games had, and leaves that one out of the rows', async () => {
    const formats: { publisher: string; version: string; media_type: string }[] = await db.query(
      `SELECT publisher, version, media_type FROM formats ORDER BY publisher, version`,
    );
    expect(formats).toEqual([
      { publisher: 'GoFans', version: '2.2', media_type: 'application/xml' },
      { publisher: 'SGF', version: 'FF4-Go', media_type: 'application/x-go-sgf' },
      { publisher: 'ViaThinkSoft Peg Solitaire', version: '2', media_type: 'text/plain; charset=utf-8' },
    ]);
    const rows: { id: string; media_type: string | null; format: string | null; family: string | null; indexed: boolean }[] = await db.query(
      `SELECT g.id, g.media_type, fm.publisher AS format, fa.name AS family, g.indexed
       FROM games g LEFT JOIN formats fm ON fm.id = g.format_id LEFT JOIN families fa ON fa.id = g.family_id ORDER BY g.id`,
    );
    const byName = Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, rows.find((row) => Number(row.id) === id)]));
    expect(byName.square).toMatchObject({ media_type: null, format: PEG.publisher, family: 'peg-solitaire', indexed: true });
    expect(byName.english).toMatchObject({ media_type: null });
    expect(byName.diagonal).toMatchObject({ media_type: 'application/x-peg-board' });
    expect(byName.gofans).toMatchObject({ media_type: null, format: 'GoFans', family: 'go' });
    expect(byName.note).toMatchObject({ media_type: 'text/plain', format: null, family: null, indexed: false });
  });

  it('moves files of at most 256 bytes into their row and leaves larger ones and ranges of kept files where they were', async () => {
    const rows: { id: string; inline: boolean; apart: boolean }[] = await db.query(
      `SELECT g.id, g.raw IS NOT NULL AS inline, EXISTS (SELECT 1 FROM game_files f WHERE f.game_id = g.id) AS apart FROM games g`,
    );
    const where = (id: number) => rows.find((row) => Number(row.id) === id);
    for (const name of ['square', 'english', 'diagonal', 'note']) expect([name, where(ids[name])]).toMatchObject([name, { inline: true, apart: false }]);
    expect(GOFANS.length).toBeGreaterThan(256);
    expect(where(ids.gofans)).toMatchObject({ inline: false, apart: true });
    expect(where(ids.inUpload)).toMatchObject({ inline: false, apart: false });
  });

  it('searches by format, family and status through the lookups', async () => {
    const found = async (query: string) =>
      ((await (await fetch(`${archive.baseUrl}/games?${query}`)).json()) as { items: { id: number }[] }).items.map((item) => item.id).sort((a, b) => a - b);
    expect(await found(`publisher=${encodeURIComponent(PEG.publisher)}&version=2`)).toEqual([ids.square, ids.english, ids.diagonal]);
    expect(await found('publisher=GoFans')).toEqual([ids.gofans]);
    expect(await found('family=go')).toEqual([ids.gofans, ids.inUpload]);
    expect(await found('status=stored')).toEqual([ids.note]);
  });

  it('numbers new uploads after the migrated games, and finds the same bytes uploaded again', async () => {
    const again = await post(archive, '/games', SQUARE);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { id: number }).id).toBe(ids.square);
    const fresh = await post(archive, '/games?filename=v.txt', Buffer.from('1.0\n1 Ann\n2 Bob\n-s-\nb7a6a8a7\n'));
    expect(fresh.status).toBe(201);
    expect(((await fresh.json()) as { id: number }).id).toBeGreaterThan(Math.max(...Object.values(ids)));
  });
});
