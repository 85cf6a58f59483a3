import { nodeComment, writeTree } from '../../src/positions/position-tree.js';
import type { TreeNode, TreeRoot } from '../../src/positions/position-tree.js';

/* The tree's writing, on small trees whose files are written out by hand here. */
const node = (move: string, games: number, children: TreeNode[] = []): TreeNode => ({ move, games, results: { black: games }, firstYear: 2001, lastYear: 2003, children });
const root = (family: TreeRoot['family'], children: TreeNode[], more: Partial<TreeRoot> = {}): TreeRoot => ({
  family,
  width: family === 'checkers' ? 8 : 19,
  height: family === 'checkers' ? 8 : 19,
  setup: { black: [], white: [] },
  fen: null,
  line: [],
  firstMover: 0,
  firstMoveNumber: 1,
  comment: 'asked',
  positionComment: 'reached',
  children,
  ...more,
});

describe('the opening tree written out', () => {
  it('words a node: games, each result as a share, the years', () => {
    expect(nodeComment(1234, { black: 642, white: 580, draw: 12 }, 1998, 2024)).toBe('1,234 games · black won 52% · white won 47% · drawn 1% · 1998–2024');
    expect(nodeComment(1, { unknown: 1 }, 2005, 2005)).toBe('1 game · no result 100% · 2005');
    expect(nodeComment(3, { white: 3 }, null, null)).toBe('3 games · white won 100%');
  });

  it('SGF: one child goes on in the sequence, several are variations; `]` and `\\` escaped in comments', () => {
    const tree = root('go', [node('pd', 3, [node('dd', 2), node('dp', 1)])], { comment: 'SGF (;SZ[19]) a\\b' });
    expect(writeTree(tree)).toBe(
      '(;GM[1]FF[4]CA[UTF-8]AP[Tabula]SZ[19]C[SGF (;SZ[19\\]) a\\\\b\n\nreached]' +
        '\n;B[pd]C[3 games · black won 100% · 2001–2003]' +
        '\n(;W[dd]C[2 games · black won 100% · 2001–2003])' +
        '\n(;W[dp]C[1 game · black won 100% · 2001–2003]))\n',
    );
  });

  it('SGF: a setup with white to move, a Dots field, and a line leading to the position', () => {
    expect(writeTree(root('dots', [node('aa', 1)], { width: 39, height: 32, setup: { black: ['cc'], white: [] }, firstMover: 1 }))).toBe(
      '(;GM[40]FF[4]CA[UTF-8]AP[Tabula]SZ[39:32]AB[cc]PL[W]C[asked\n\nreached]\n;W[aa]C[1 game · black won 100% · 2001–2003])\n',
    );
    expect(writeTree(root('go', [node('qq', 1)], { line: ['pd', 'dd'] }))).toBe(
      '(;GM[1]FF[4]CA[UTF-8]AP[Tabula]SZ[19]C[asked]\n;B[pd]\n;W[dd]C[reached]\n;B[qq]C[1 game · black won 100% · 2001–2003])\n',
    );
  });

  it('PDN: alternatives in ( … ) after the main move, numbered moves, FEN when set up', () => {
    const tree = root('checkers', [node('c3-d4', 3, [node('f6-g5', 3)]), node('c3-b4', 1, [node('f6-e5', 1)])], { fen: 'B:W21-32:B1-12', firstMover: 1 });
    expect(writeTree(tree)).toBe(
      '[Event "Tabula opening tree"]\n[GameType "25"]\n[Result "*"]\n[SetUp "1"]\n[FEN "B:W21-32:B1-12"]\n\n' +
        // Lines of at most 80 characters, a comment never cut.
        '{asked reached} 1... c3-d4 {3 games · black won 100% · 2001–2003} (1... c3-b4\n' +
        '{1 game · black won 100% · 2001–2003} 2. f6-e5\n' +
        '{1 game · black won 100% · 2001–2003} ) 2. f6-g5\n' +
        '{3 games · black won 100% · 2001–2003} *\n',
    );
  });
});
