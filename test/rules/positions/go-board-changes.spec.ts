import { readFileSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../../../src/core/limits.js';
import { goPositionTrack } from '../../../src/formats/families/go/positions.js';
import { sgfToInterchange } from '../../../src/formats/plugins/sgf-go/interchange.js';
import { buildGame, unreplayable } from '../../../src/formats/plugins/sgf-go/model.js';
import { parseSgf } from '../../../src/formats/syntaxes/sgf/index.js';
import { BoardChangesWriter } from '../../../src/rules/patterns.js';
import { filesUnder } from '../../support/files.js';
import { sabakiRoot } from '../../support/go/sabaki-sgf.js';
import { replay } from '../../support/positions/go-replay.js';

/*
 * The Go track tells pattern search's writer only the points a ply changed (the stone, the captures,
 * setup stones): its changes must be those a writer scanning every point writes from whole boards.
 * The whole boards here are @sabaki/go-board's (test/support/positions/go-replay.ts), not the
 * archive's engine, over every fourth GNU Go regression game (a lean test) with a main line both replay.
 */
const ROOT = 'test/fixtures/realdata/go/gnugo_regression_games';
/** Sabaki's signs as pattern states: 1 black → 1, -1 white → 2. */
const STATE = (sign: number) => (sign === 1 ? 1 : sign === -1 ? 2 : 0);

it('writes the changes of a quarter of the GNU Go games as a scan of every point of whole boards does', () => {
  let games = 0;
  let captures = 0;
  for (const path of filesUnder(ROOT, '.sgf').filter((_, i) => i % 4 === 0)) {
    const bytes = readFileSync(path);
    const collection = parseSgf(bytes, DEFAULT_LIMITS);
    if (unreplayable(collection.trees[0]) !== null) continue;
    const track = goPositionTrack(sgfToInterchange(buildGame(collection, collection.trees[0], DEFAULT_LIMITS)));
    const replayed = replay(sabakiRoot(bytes));
    if (!track?.board || !replayed) continue;
    const { size, positions, moves } = replayed;
    const writer = new BoardChangesWriter(size, size);
    // The lines end where the engines' rules end them; the shorter is compared.
    const plies = Math.min(positions.length - 1, track.board.changes.reduce((n, byte, i) => n + (i % 2 === 0 && byte & 0x80 ? 1 : 0), 0));
    let stonesBefore = 0;
    for (let ply = 0; ply <= plies; ply++) {
      const states = new Uint8Array(size * size);
      let stones = 0;
      positions[ply].rows.forEach((row, y) =>
        row.forEach((sign, x) => {
          states[y * size + x] = STATE(sign);
          if (sign !== 0) stones++;
        }),
      );
      const move = ply === 0 ? undefined : moves[ply - 1];
      writer.observe(states, move === undefined ? undefined : move === null ? null : move[1] * size + move[0]);
      // A stone played, and fewer than one more on the board: it took some.
      if (move && stones <= stonesBefore) captures++;
      stonesBefore = stones;
    }
    const expected = writer.finish().changes;
    expect([path, Buffer.from(track.board.changes.subarray(0, expected.length)).toString('hex')]).toEqual([path, Buffer.from(expected).toString('hex')]);
    games++;
  }
  // Enough games, and plies that took stones among them.
  expect(games).toBeGreaterThan(150);
  expect(captures).toBeGreaterThan(300);
});
