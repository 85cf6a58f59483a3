import { BLACK, EMPTY, GoPosition, MAX_BOARD_SIZE, WHITE } from '../../../rules/go/index.js';
import type { Stone } from '../../../rules/go/index.js';
import { GoPositionHasher } from '../../../rules/go/position-key.js';
import { BoardChangesWriter } from '../../../rules/patterns.js';
import { apply } from '../../../rules/symmetry.js';
import { PASS_POINT, PositionTrackWriter, writeUint16 } from '../positions.js';
import type { PositionTrack } from '../positions.js';
import type { GoInterchangeGame, GoInterchangeMove } from './interchange.js';
import type { GoColor } from './result.js';

const STONE: Readonly<Record<GoColor | 'empty', number>> = { black: BLACK, white: WHITE, empty: EMPTY };

/**
 * The positions of a Go game's main line (see {@link PositionTrack}): the board after the setup
 * (handicap stones) and after each ply, with the side to move the colour of the line's next move —
 * after the last move the other colour than its. The line is followed up to its first illegal move
 * (the positions after it are no game's); null for a board the rules engine does not play (not
 * square, larger than 25).
 */
export function goPositionTrack(game: GoInterchangeGame): PositionTrack | null {
  const size = game.boardWidth;
  if (size !== game.boardHeight || size < 1 || size > MAX_BOARD_SIZE) return null;
  const line: GoInterchangeMove[] = [];
  for (let move = game.moves[0]; move !== undefined; move = move.next[0]) line.push(move);
  const position = new GoPosition(size);
  // The board's changes, for pattern search: the point of the ply that led to each position (null a pass).
  const board = new BoardChangesWriter(size, size);
  let played: number | null | undefined;
  const hasher = new GoPositionHasher(size);
  const set = (x: number, y: number, cell: number) => {
    if (x < 0 || y < 0 || x >= size || y >= size) return;
    position.setStone(x, y, cell as Stone);
    hasher.set(x, y, cell as Stone);
  };
  for (const point of game.setup) set(point.x, point.y, STONE[point.cell]);
  const writer = new PositionTrackWriter('go', line.length);
  const colourOf = (move: GoInterchangeMove | undefined, fallback: Stone): Stone =>
    move?.color === 'white' ? WHITE : move?.color === 'black' ? BLACK : fallback;
  for (let i = 0; ; i++) {
    const move = line[i];
    // Setup inside the line comes before its move, so it belongs to the position the move is played from.
    if (move?.setup) for (const point of move.setup) set(point.x, point.y, STONE[point.cell]);
    const previous = line[i - 1];
    const toMove = colourOf(move, previous ? (colourOf(previous, BLACK) === BLACK ? WHITE : BLACK) : BLACK);
    hasher.setToMove(toMove);
    writer.position(hasher.canonical().key, hasher.leastTransforms());
    board.observe(position.cells, played);
    if (!move) break;
    const point = move.point;
    if (point === null) {
      position.pass();
      played = null;
      writer.move((_, into) => writeUint16(into, 0, PASS_POINT));
      continue;
    }
    const stone = colourOf(move, toMove);
    const outcome = position.play(stone, point.x, point.y);
    if (!outcome.legal) break;
    played = point.y * size + point.x;
    writer.move((t, into) => {
      const [x, y] = apply(t, point.x, point.y, size, size);
      writeUint16(into, 0, y * size + x);
    });
    hasher.play(point.x, point.y, stone, outcome.captured);
  }
  return { ...writer.finish(), board: board.finish() };
}
