import { readSgfMainLine } from '../../support/go/sgf-main-line.js';
import { sgfToGoFans11 } from '../../support/go/sgf-to-gofans.js';

describe('the SGF main-line reader of the converter', () => {
  it('follows the first variation only, reads escaped values and tt passes', () => {
    const sgf = readSgfMainLine('(;GM[1]FF[4]SZ[9]PB[A \\] b]C[x;y(z)];B[aa]C[(not a tree)](;W[ib];B[tt](;W[])(;W[cc]))(;W[bb]))');
    expect(sgf.size).toBe(9);
    expect(sgf.root.PB).toBe('A ] b');
    expect(sgf.moves).toEqual([
      { color: 'black', point: { x: 0, y: 0 } },
      { color: 'white', point: { x: 8, y: 1 } },
      { color: 'black', point: null },
      { color: 'white', point: null },
    ]);
    expect(sgf.hasSetup).toBe(false);
  });

  it('leaves out games with setup stones and marks a resignation the GoFans way', () => {
    expect(sgfToGoFans11('(;SZ[19]HA[2]AB[dd][pp];W[qd])', 'h.sgf')).toBeNull();
    const converted = sgfToGoFans11('(;SZ[9]KM[5.5]PB[Ann]PW[Ben]RE[W+Resign];B[ee];W[cc])', 'r.sgf')!;
    // Black resigned: Points -1, and a final pass by black is added as the format's formal pass.
    expect(converted.moves.at(-1)).toEqual({ color: 'black', point: null });
    expect(converted.xml).toContain('<player id="0" name="Ann" points="-1"/>');
    expect(converted.xml).toContain('<komi>5.5</komi>');
    expect(converted.xml).toContain('<result>W+Resign</result>');
  });
});
