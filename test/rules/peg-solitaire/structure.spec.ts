import { geometryOf } from '../../../src/rules/peg-solitaire/geometry.js';
import { classOf, parityClassesOf } from '../../../src/rules/peg-solitaire/parity-classes.js';
import { resourceWeights } from '../../../src/rules/peg-solitaire/resource-count.js';
import { symmetriesOf } from '../../../src/rules/peg-solitaire/symmetry.js';
import { boardFromRows } from '../../support/peg-solitaire/boards.js';

const ENGLISH = ['**yyy**', '**yyy**', 'yyyyyyy', 'yyyeyyy', 'yyyyyyy', '**yyy**', '**yyy**'];
const ASYMMETRIC = ['**yyy***', '**yyy***', '**yyy***', 'yyyyyyyy', 'yyyEyyyy', 'yyyyyyyy', '**yyy***', '**yyy***'];

describe('geometryOf', () => {
  it('lists the 76 jumps of the English board in normal mode', () => {
    // Lines of three slots: the two 3-wide arms give 3 columns × 5 + 3 rows × 5 triples… counted
    // directly: rows 0, 1, 5, 6 one triple each, rows 2–4 five each, same for columns: 2 × (4 + 15) = 38,
    // each jumpable both ways.
    const geometry = geometryOf(boardFromRows(ENGLISH));
    expect(geometry.slots).toHaveLength(33);
    expect(geometry.jumps).toHaveLength(76);
  });

  it('adds the diagonal jumps in diagonal mode', () => {
    const normal = geometryOf(boardFromRows(['yyy', 'yyy', 'yyy'], 'normal'));
    const diagonal = geometryOf(boardFromRows(['yyy', 'yyy', 'yyy'], 'diagonal'));
    // 3 rows + 3 columns, both ways; diagonal mode adds the two diagonals, both ways.
    expect(normal.jumps).toHaveLength(12);
    expect(diagonal.jumps).toHaveLength(16);
  });
});

describe('symmetriesOf', () => {
  const noTargets = () => false;

  it('finds all eight symmetries of the English board', () => {
    expect(symmetriesOf(geometryOf(boardFromRows(ENGLISH)), noTargets)).toHaveLength(8);
  });

  it('keeps only the symmetries that map the targets onto targets', () => {
    const rows = [...ENGLISH];
    rows[0] = '**Yyy**';
    const board = boardFromRows(rows);
    const geometry = geometryOf(board);
    const isTarget = (slot: number) => {
      const p = geometry.slots[slot];
      const cell = board.cells[p.y * board.width + p.x];
      return cell.kind === 'slot' && cell.target;
    };
    // A target on the left corner of the top arm, (2, 0): every rotation and reflection but the identity
    // moves it to a slot that is not a target.
    expect(symmetriesOf(geometry, isTarget)).toHaveLength(1);
  });

  it('finds the one reflection of the asymmetric 3-3-2-2 board, across its anti-diagonal', () => {
    // Vertical arm in columns 2–4, horizontal arm in rows 3–5 of an 8×8 box: (x, y) → (7 − y, 7 − x)
    // maps one arm onto the other and the target (3, 4) onto itself.
    const board = boardFromRows(ASYMMETRIC);
    const geometry = geometryOf(board);
    const symmetries = symmetriesOf(geometry, (slot) => geometry.slots[slot].x === 3 && geometry.slots[slot].y === 4);
    expect(symmetries).toHaveLength(2);
    const image = symmetries[1];
    geometry.slots.forEach((p, slot) => {
      expect(geometry.slots[image[slot]]).toEqual({ x: 7 - p.y, y: 7 - p.x });
    });
  });

  it('looks at the slots, not at locked margins of the matrix', () => {
    const board = boardFromRows(['****', '*yy*', '*yy*', '****', '****']);
    expect(symmetriesOf(geometryOf(board), noTargets)).toHaveLength(8);
  });
});

describe('parityClassesOf', () => {
  it('finds the 16 position classes of the English board (four independent parities)', () => {
    expect(parityClassesOf(geometryOf(boardFromRows(ENGLISH))).basis).toHaveLength(4);
  });

  it('gives functions that every jump leaves unchanged, on boards of both modes', () => {
    for (const mode of ['normal', 'diagonal'] as const) {
      const geometry = geometryOf(boardFromRows(ASYMMETRIC, mode));
      const { basis } = parityClassesOf(geometry);
      for (const f of basis) {
        for (const jump of geometry.jumps) expect(f[jump.from] ^ f[jump.over] ^ f[jump.to]).toBe(0);
      }
    }
  });

  it('agrees with the classic diagonal-line argument: the English centre start may end in the centre but not next to it', () => {
    const geometry = geometryOf(boardFromRows(ENGLISH));
    const classes = parityClassesOf(geometry);
    const slotAt = (x: number, y: number) => geometry.slotOfCell[y * 7 + x];
    const start = geometry.slots.map((_, slot) => slot).filter((slot) => slot !== slotAt(3, 3));
    expect(classOf(classes, [slotAt(3, 3)])).toBe(classOf(classes, start));
    expect(classOf(classes, [slotAt(3, 0)])).toBe(classOf(classes, start));
    expect(classOf(classes, [slotAt(3, 2)])).not.toBe(classOf(classes, start));
    expect(classOf(classes, [slotAt(4, 4)])).not.toBe(classOf(classes, start));
  });
});

describe('resourceWeights', () => {
  it('is a pagoda function: no jump raises the total weight, in either mode', () => {
    for (const mode of ['normal', 'diagonal'] as const) {
      const geometry = geometryOf(boardFromRows(ENGLISH, mode));
      const finals = geometry.slots.map((_, slot) => slot);
      const weights = resourceWeights(geometry, mode, finals);
      const n = geometry.slots.length;
      finals.forEach((_, k) => {
        for (const { from, over, to } of geometry.jumps) {
          expect(weights[k * n + from] + weights[k * n + over]).toBeGreaterThanOrEqual(weights[k * n + to] - 1e-12);
        }
      });
    }
  });

  it('gives the final slot itself the weight 1', () => {
    const geometry = geometryOf(boardFromRows(ENGLISH));
    const weights = resourceWeights(geometry, 'normal', [5]);
    expect(weights[5]).toBe(1);
  });
});
