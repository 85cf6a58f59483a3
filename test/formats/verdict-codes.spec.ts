import { CHECKERS_ILLEGAL } from '../../src/rules/checkers/illegal.js';
import { DOTS_ILLEGAL } from '../../src/rules/dots/illegal.js';
import { GO_ILLEGAL } from '../../src/rules/go/illegal.js';
import { PEG_ILLEGAL } from '../../src/rules/peg-solitaire/illegal.js';
import { VERDICT_PROBLEM_CODES, isVerdictProblemCode } from '../../src/formats/verdict-codes.js';

describe('verdict problem codes', () => {
  it('are unique, and each is a group and snake_case words', () => {
    expect(new Set(VERDICT_PROBLEM_CODES).size).toBe(VERDICT_PROBLEM_CODES.length);
    for (const code of VERDICT_PROBLEM_CODES) expect(code).toMatch(/^(go|dots|checkers|peg|move|cache|note)\.[a-z]+(_[a-z]+)*$/);
  });

  it("hold every rules engine's reason, prefixed by its family", () => {
    const engines: [string, readonly string[]][] = [
      ['go', GO_ILLEGAL],
      ['dots', DOTS_ILLEGAL],
      ['checkers', CHECKERS_ILLEGAL],
      ['peg', PEG_ILLEGAL],
    ];
    for (const [prefix, reasons] of engines) {
      const inList = VERDICT_PROBLEM_CODES.filter((code) => code.startsWith(`${prefix}.`)).map((code) => code.slice(prefix.length + 1));
      expect(inList).toEqual([...reasons]);
    }
  });

  it('never lose a published code (clients match on them): new codes may only be added', () => {
    // Every code as first published; a rename or removal fails here.
    const published = [
      'go.off_board', 'go.occupied', 'go.suicide', 'go.ko',
      'dots.off_board', 'dots.occupied', 'dots.inside_surround',
      'checkers.game_over', 'checkers.no_piece', 'checkers.opponent_piece', 'checkers.must_capture',
      'checkers.several_destinations', 'checkers.not_diagonal', 'checkers.occupied', 'checkers.blocked',
      'checkers.man_too_far', 'checkers.man_backwards', 'checkers.captures_per_landing', 'checkers.jumps_nothing',
      'checkers.jumps_several', 'checkers.jumps_own_piece', 'checkers.jumped_twice', 'checkers.man_jump_distance',
      'checkers.wrong_captured', 'checkers.king_landing', 'checkers.must_continue', 'checkers.no_such_capture',
      'peg.not_a_jump', 'peg.diagonal_not_allowed', 'peg.off_board', 'peg.not_a_slot', 'peg.no_stone',
      'peg.nothing_to_jump', 'peg.occupied',
      'cache.points', 'cache.removes', 'cache.surrounds', 'cache.pieces',
      'note.resigned_without_pass', 'note.not_replayed',
    ];
    expect(published.filter((code) => !isVerdictProblemCode(code))).toEqual([]);
  });
});
