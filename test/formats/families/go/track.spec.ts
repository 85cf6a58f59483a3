import { readFileSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { goPositionTrack } from '../../../../src/formats/families/go/positions.js';
import { sgfPositionTrack, sgfToInterchange } from '../../../../src/formats/plugins/sgf-go/interchange.js';
import { buildGame, unreplayable } from '../../../../src/formats/plugins/sgf-go/model.js';
import { parseSgf } from '../../../../src/formats/syntaxes/sgf/index.js';
import { filesUnder } from '../../../support/files.js';

/*
 * A stored SGF game's track is made from the reading's own model (its main line, without the
 * family's tree of every variation), and with POSITION_INDEX=false without keys. Both must give what
 * the family's track of the whole interchange game gives (whose keys the position suites check
 * against a brute force): here over every GNU Go regression game, handicap and setup games among them.
 */
const ROOT = 'test/fixtures/realdata/go/gnugo_regression_games';

function models() {
  return filesUnder(ROOT, '.sgf').flatMap((path) => {
    const collection = parseSgf(readFileSync(path), DEFAULT_LIMITS);
    if (unreplayable(collection.trees[0]) !== null) return [];
    return [{ path, game: buildGame(collection, collection.trees[0], DEFAULT_LIMITS) }];
  });
}

it('makes from the SGF model the track of the interchange game: entries, identity and board changes', () => {
  let compared = 0;
  for (const { path, game } of models()) {
    const whole = goPositionTrack(sgfToInterchange(game));
    expect({ path, track: sgfPositionTrack(game, {}) }).toEqual({ path, track: whole });
    if (whole) compared++;
  }
  expect(compared).toBeGreaterThan(50);
});

it('without keys, makes the same identity and board changes, and entries holding no key', () => {
  let compared = 0;
  for (const { path, game } of models()) {
    const keyed = sgfPositionTrack(game, { keys: true });
    const keyless = sgfPositionTrack(game, { keys: false });
    if (!keyed || !keyless) {
      expect({ path, keyless }).toEqual({ path, keyless: keyed });
      continue;
    }
    expect({ path, identity: keyless.identity, board: keyless.board }).toEqual({ path, identity: keyed.identity, board: keyed.board });
    expect(keyless.entries.length).toBe(keyed.entries.length);
    let withKey = 0;
    for (let at = 0; at < keyless.entries.length; at += keyless.stride) if (keyless.entries.subarray(at, at + 8).some((byte) => byte !== 0)) withKey++;
    expect({ path, withKey }).toEqual({ path, withKey: 0 });
    // The keyed track's keys are keys: not all zero.
    expect(keyed.entries.subarray(0, 8).some((byte) => byte !== 0)).toBe(true);
    compared++;
  }
  expect(compared).toBeGreaterThan(50);
});
