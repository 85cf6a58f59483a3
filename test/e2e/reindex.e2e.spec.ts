import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AnalysisPool } from '../../src/analysis/analysis-pool.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

/**
 * Re-indexing reads stored bytes again with today's plugins. An archive written by an older
 * version is emulated by rewriting rows the way that version left them (a game kept as `stored`
 * because its format was not understood yet, verdict problems without codes).
 */
const BARS = readFileSync(new URL('fixtures/demonstration.bars', import.meta.url));
const PEG = readFileSync(new URL('../fixtures/realdata/peg/v2_head/Trapeze.brd', import.meta.url));
const GO = readFileSync(new URL('../fixtures/realdata/go/gnugo_regression_games/9x9-2.sgf', import.meta.url));
const KEY = { Authorization: 'Bearer reindex-key' };

describe('re-indexing stored games', () => {
  let archive: TestArchive;
  let db: DataSource;

  beforeAll(async () => {
    archive = await startArchive({ API_KEYS: 'reindex-key' });
    db = archive.app.get<DataSource>(getDataSourceToken());
  });
  afterAll(async () => {
    await archive.close();
  });

  const upload = async (bytes: Buffer | string, filename: string) => {
    const response = await post(archive, `/games?filename=${filename}`, bytes, KEY);
    expect(response.status).toBe(201);
    return response.json();
  };
  /** What an archive that could not read the format yet kept of the game: the bytes, status stored. */
  const forgetReading = async (id: number) => {
    await db.query(`DELETE FROM game_analyses WHERE game_id = $1`, [id]);
    await db.query(`DELETE FROM game_players WHERE game_id = $1`, [id]);
    await db.query(
      `UPDATE games SET format_id = NULL, media_type = coalesce(media_type, (SELECT fm.media_type FROM formats fm WHERE fm.id = format_id)), header = NULL, body = NULL, header_start = NULL, header_end = NULL,
                        body_start = NULL, body_end = NULL, family_id = NULL, indexed = false,
                        status_reason = 'text that no format plugin recognises: stored verbatim, not indexed'
       WHERE id = $1`,
      [id],
    );
  };
  const reindex = (id: number, headers: Record<string, string> = KEY) => fetch(`${archive.baseUrl}/games/${id}/reindex`, { method: 'POST', headers });
  const get = async (id: number) => (await fetch(`${archive.baseUrl}/games/${id}`)).json();

  it('indexes a game kept before its format was understood, with the bytes unchanged', async () => {
    const game = await upload(BARS, 'demo.bars');
    await forgetReading(game.id);
    expect(await get(game.id)).toMatchObject({ status: 'stored', family: null, players: [], verdict: null });
    expect((await fetch(`${archive.baseUrl}/games/${game.id}/replay`)).status).toBe(409);

    const response = await reindex(game.id);
    expect(response.status).toBe(200);
    const again = await response.json();
    // The datasheet's demonstration game: ten moves, white took four pieces and black two.
    expect(again).toMatchObject({ id: game.id, status: 'indexed', publisher: 'BARS', family: 'checkers', moveCount: 10, sha256: game.sha256 });
    expect(again.players.map((player: { captures: number }) => player.captures)).toEqual([4, 2]);
    expect(await get(game.id)).toEqual(again);
    const raw = await fetch(`${archive.baseUrl}/games/${game.id}/raw`);
    expect(Buffer.from(await raw.arrayBuffer())).toEqual(BARS);
    expect((await fetch(`${archive.baseUrl}/games/${game.id}/replay`)).status).toBe(200);
  });

  it('gives verdict problems written before they had codes their codes', async () => {
    // White moves first in Russian draughts: a record whose first move is black's breaks the turn order.
    const game = await upload(BARS.toString('utf8').replace('[156, 145], [223, 234]', '[223, 234], [156, 145]'), 'wrong-turn.bars');
    expect(game.verdict.legal).toBe(false);
    const codes = game.verdict.problems.map((problem: { code: string }) => problem.code);
    expect(codes).toContain('checkers.opponent_piece');
    await db.query(`UPDATE game_analyses SET problems = (SELECT json_agg(p::jsonb - 'code') FROM json_array_elements(problems) p) WHERE game_id = $1`, [game.id]);
    const [row] = await db.query(`SELECT problems FROM game_analyses WHERE game_id = $1`, [game.id]);
    expect(row.problems.every((problem: Record<string, unknown>) => !('code' in problem))).toBe(true);
    const again = await (await reindex(game.id)).json();
    expect(again.verdict.problems.map((problem: { code: string }) => problem.code)).toEqual(codes);
  });

  it("leaves a game today's plugins refuse as it was, and says why", async () => {
    const game = await upload(PEG, 'trapeze.brd');
    // An older, laxer version kept these bytes as a board.
    const laxer = Buffer.from('Version 2\r\nMode: Normal\r\ny y ?\r\n');
    // A small file keeps its bytes in its games row, a larger one in game_files.
    await db.query(`UPDATE games SET raw = $2 WHERE id = $1 AND raw IS NOT NULL`, [game.id, laxer]);
    await db.query(`UPDATE game_files SET raw = $2 WHERE game_id = $1`, [game.id, laxer]);
    const before = await get(game.id);
    const response = await reindex(game.id);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ code: 'format.malformed' });
    expect(await get(game.id)).toEqual(before);
  });

  it('needs the API key, and answers 404 for a game that is not there', async () => {
    const game = await upload('needs a key\n', 'key.txt');
    const refused = await reindex(game.id, {});
    expect(refused.status).toBe(401);
    expect((await reindex(987654321)).status).toBe(404);
  });

  it('answers 404 for a game deleted while its bytes were being read again, and writes nothing for it', async () => {
    const game = await upload(GO, 'deleted-meanwhile.sgf');
    const pool = archive.app.get(AnalysisPool);
    const read = pool.read.bind(pool);
    // The game goes while the analysis thread reads it: DELETE /games/{id} from another client.
    const spy = jest.spyOn(pool, 'read').mockImplementationOnce(async (...args: Parameters<AnalysisPool['read']>) => {
      const record = await read(...args);
      expect((await fetch(`${archive.baseUrl}/games/${game.id}`, { method: 'DELETE', headers: KEY })).status).toBe(204);
      return record;
    });
    try {
      const response = await reindex(game.id);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    } finally {
      spy.mockRestore();
    }
    const left = await db.query(
      `SELECT (SELECT count(*) FROM game_analyses WHERE game_id = $1)::int AS analyses, (SELECT count(*) FROM game_players WHERE game_id = $1)::int AS players`,
      [game.id],
    );
    expect(left).toEqual([{ analyses: 0, players: 0 }]);
  });

  it('re-indexes matching games in batches, following next until it is null', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const game = await upload(Buffer.concat([PEG, Buffer.from(' '.repeat(i + 1))]), `batch-${i}.brd`);
      await forgetReading(game.id);
      ids.push(game.id);
    }
    const indexedBefore = (await (await fetch(`${archive.baseUrl}/games?status=indexed&limit=100`)).json()).items.length;
    const seen: number[] = [];
    let after = 0;
    for (let call = 0; call < 10; call++) {
      const response = await fetch(`${archive.baseUrl}/reindex?status=stored&limit=2&after=${after}`, { method: 'POST', headers: KEY });
      expect(response.status).toBe(200);
      const page = await response.json();
      expect(page.refused).toEqual([]);
      seen.push(page.reindexed);
      if (page.next === null) break;
      after = page.next;
    }
    // Only the stored games match; the peg boards are indexed now, the other stored texts stay stored.
    for (const id of ids) expect(await get(id)).toMatchObject({ status: 'indexed', family: 'peg-solitaire' });
    const indexedAfter = (await (await fetch(`${archive.baseUrl}/games?status=indexed&limit=100`)).json()).items.length;
    expect(indexedAfter - indexedBefore).toBe(5);
    expect(seen.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(5);
  });
});
