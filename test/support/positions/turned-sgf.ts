import { turnedPoint } from './grids.js';
import type { TransformName } from '../../../src/rules/symmetry.js';

/*
 * SGF files turned by a symmetry of the board, written for the tests that look for a game in any
 * orientation (positions, identities): every point's letters mapped by hand, nothing else touched.
 */

/** SGF letters: a–z 0–25, A–Z 26–51. */
const letterValue = (c: string): number => (c >= 'a' && c <= 'z' ? c.charCodeAt(0) - 97 : c.charCodeAt(0) - 65 + 26);
const letterOf = (n: number): string => (n < 26 ? String.fromCharCode(97 + n) : String.fromCharCode(65 + n - 26));

/** A Go SGF turned: the points of moves and setup (`B`, `W`, `AB`, `AW`, `AE`) on a board of `size`. */
export function turnedGoSgf(sgf: string, size: number, name: TransformName): string {
  return sgf.replace(/\b(B|W|AB|AW|AE)((?:\[[a-s]{2}\])+)/g, (_, id: string, values: string) =>
    id + values.replace(/\[([a-s]{2})\]/g, (_m, v: string) => {
      const [x, y] = [letterValue(v[0]), letterValue(v[1])];
      if (x >= size || y >= size) return `[${v}]`;
      const [tx, ty] = turnedPoint(x, y, size, size, name);
      return `[${letterOf(tx)}${letterOf(ty)}]`;
    }),
  );
}

/** A Dots SGF turned: every point of every move, its surround chains (`.`-separated) and setup value, on a `width` × `height` field. */
export function turnedDotsSgf(sgf: string, width: number, height: number, name: TransformName): string {
  const turn = (value: string) => {
    const [tx, ty] = turnedPoint(letterValue(value[0]), letterValue(value[1]), width, height, name);
    return letterOf(tx) + letterOf(ty);
  };
  return sgf.replace(/(;|\]|\s)(B|W|AB|AW)((?:\s*\[[a-zA-Z.]*\])+)/g, (_, before: string, id: string, values: string) =>
    before + id + values.replace(/\[([a-zA-Z.]*)\]/g, (_m, v: string) => `[${v.split('.').map((part) => part.replace(/[a-zA-Z]{2}/g, turn)).join('.')}]`),
  );
}
