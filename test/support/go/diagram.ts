import { BLACK, EMPTY, GoPosition, WHITE } from '../../../src/rules/go/index.js';

/** A position from rows of `X` (black), `O` (white) and `.` (empty), top row first. */
export function fromDiagram(rows: string[]): GoPosition {
  const position = new GoPosition(rows.length);
  rows.forEach((row, y) => {
    if (row.length !== rows.length) throw new Error(`row ${y} is ${row.length} wide on a ${rows.length} board`);
    [...row].forEach((c, x) => position.setStone(x, y, c === 'X' ? BLACK : c === 'O' ? WHITE : EMPTY));
  });
  return position;
}

export function toDiagram(position: GoPosition): string[] {
  const rows: string[] = [];
  for (let y = 0; y < position.size; y++) {
    let row = '';
    for (let x = 0; x < position.size; x++) row += '.XO'[position.at(x, y)];
    rows.push(row);
  }
  return rows;
}

export function point(position: GoPosition, index: number): string {
  return `${index % position.size},${Math.floor(index / position.size)}`;
}
