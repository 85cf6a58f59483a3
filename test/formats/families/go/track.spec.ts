import { readFileSync } from 'node:fs';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { goPositionTrack } from '../../../../src/formats/families/go/positions.js';
import { replayGoGame } from '../../../../src/formats/families/go/replay.js';
import { trackOfLine } from '../../../../src/formats/families/lines.js';
import { REPLAY_PARTS } from '../../../../src/formats/plugin.js';
import { sgfLine, sgfPositionTrack, sgfToInterchange } from '../../../../src/formats/plugins/sgf-go/interchange.js';
import { buildGame, unreplayable } from '../../../../src/formats/plugins/sgf-go/model.js';
import type { SgfGoGame } from '../../../../src/formats/plugins/sgf-go/model.js';
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

/** The track of the main line the plugin hands over, told what the reading's replay found each move took, or not told. */
function lineTracks(game: SgfGoGame) {
  const replay = replayGoGame(game.width, game.roots, game.initial ?? undefined);
  const parts = new Set(REPLAY_PARTS);
  return { told: trackOfLine(sgfLine(game, replay), parts), played: trackOfLine(sgfLine(game), parts), replay };
}

it("makes the same track from the reading's replay as by playing the line again, over every GNU Go game", () => {
  let compared = 0;
  for (const { path, game } of models()) {
    const { told, played } = lineTracks(game);
    // The line played again is checked above against the interchange game's track.
    expect({ path, told }).toEqual({ path, told: played });
    if (played) compared++;
  }
  expect(compared).toBeGreaterThan(50);
});

it("stops where the reading's replay found a move illegal, after a capture and setup inside the line, as playing it does", () => {
  // On 5x5, by hand: B b1, W a1, then B a2 takes a1 (no liberty left); W c1, B d1; then a node sets up
  // a white stone on e5 and plays W a1, between two black stones with no liberty and nothing to take:
  // suicide, where the line's positions end.
  const sgf = '(;GM[1]FF[4]SZ[5];B[ba];W[aa];B[ab];W[ca];B[da];AW[ee]W[aa];B[cc];W[dd])';
  const collection = parseSgf(Buffer.from(sgf), DEFAULT_LIMITS);
  const game = buildGame(collection, collection.trees[0], DEFAULT_LIMITS);
  const { told, played, replay } = lineTracks(game);
  // The replay: the third move took a1 (index 0), the sixth (white a1) is suicide.
  expect(replay.mainLine.map((move) => move.illegal)).toEqual([null, null, null, null, null, 'suicide', null, null]);
  expect(replay.mainLine[2].captured).toEqual([{ x: 0, y: 0 }]);
  expect(told).toEqual(played);
  // The positions: the start and after each of the five legal moves before the illegal one.
  expect(told!.entries.length / told!.stride).toBe(6);
});
