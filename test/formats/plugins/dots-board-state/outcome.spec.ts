import { dotsServerPlugin } from '../../../../src/formats/plugins/dots-board-state/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

/** A 204 answer as the design document writes it: code line, body lines, a blank line. */
function answer(scr: string, rows: string[], auf: string): string {
  return ['204 game state', 'ACU alice', `AUF ${auf}`, `SCR ${scr}`, ...rows.map((r) => `GAL ${r}`), '', ''].join('\n');
}

async function outcomes(text: string) {
  return (await dotsServerPlugin.read({ bytes: Buffer.from(text, 'utf8') }, options)).analysis!.players.map((p) => [p.name, p.outcome]);
}

// Player 1 has captured one dot of player 2 (6) and holds one surrounded empty point (9); free points (0) remain.
const open = ['000000', '001100', '019610', '001100', '000000'];
// Every point taken: player 1's ring around a captured dot of player 2, the rest alternating dots.
const full = ['12121', '21112', '11611', '21112', '12121'];

describe('Dots server outcomes', () => {
  it('both players active and free points left: unfinished', async () => {
    expect(await outcomes(answer('1 0', open, '1 1'))).toEqual([
      ['player 1', 'unfinished'],
      ['player 2', 'unfinished'],
    ]);
  });

  it('player 2 stopped (AUF 1 0), so one player is left and the game is over: player 1 won 1:0', async () => {
    expect(await outcomes(answer('1 0', open, '1 0'))).toEqual([
      ['player 1', 'won'],
      ['player 2', 'lost'],
    ]);
  });

  it('of three players one stopped: the other two play on, unfinished', async () => {
    expect(await outcomes(answer('1 0 0', open, '1 1 0'))).toEqual([
      ['player 1', 'unfinished'],
      ['player 2', 'unfinished'],
      ['player 3', 'unfinished'],
    ]);
  });

  it('no free point left: the game is over and the board score decides (1:0)', async () => {
    expect(await outcomes(answer('1 0', full, '1 1'))).toEqual([
      ['player 1', 'won'],
      ['player 2', 'lost'],
    ]);
  });

  it('no free point and no capture: a draw at 0:0', async () => {
    expect(await outcomes(answer('0 0', ['1212', '2121', '1212'], '1 1'))).toEqual([
      ['player 1', 'drawn'],
      ['player 2', 'drawn'],
    ]);
  });
});
