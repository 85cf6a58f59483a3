import { BoardChangesWriter, everHeld } from '../../src/formats/families/patterns.js';
import { PatternFilter } from '../../src/patterns/pattern-filter.js';
import type { FilterRow } from '../../src/patterns/pattern-filter.js';

/*
 * The lines the filter keeps for confirmation: each game's line, as given with its row, is handed
 * back byte for byte for the transaction that wrote it, and for no other; a game without its line
 * (written again between the two reads) has none kept, so its line is read from the table.
 */

/** A game on a 9×9 board: `plies` stones put on distinct points, the empty point after a step seeded by the game. */
function line(game: number, plies: number): Uint8Array {
  const writer = new BoardChangesWriter(9, 9);
  const states = new Uint8Array(81);
  writer.observe(states);
  let point = game % 81;
  for (let ply = 0; ply < plies; ply++) {
    point = (point + 1 + (game % 13)) % 81;
    while (states[point] !== 0) point = (point + 1) % 81;
    states[point] = (ply % 2) + 1;
    writer.observe(states, point);
  }
  return writer.finish().changes;
}

/** A game's result and day as its row holds them: every third game's row written before rows held them. */
const factsOf = (gameId: number) =>
  gameId % 3 === 0
    ? { facts: false, result: null, played: null }
    : { facts: true, result: [null, 'black', 'white', 'draw', 'seat 3'][gameId % 5], played: gameId % 7 === 0 ? null : `19${50 + (gameId % 50)}-0${1 + (gameId % 9)}-${10 + (gameId % 19)}` };

const rowOf = (gameId: number, changes: Uint8Array, written: string): FilterRow => ({
  gameId,
  family: 'go',
  width: 9,
  height: 9,
  ...everHeld({ width: 9, height: 9, changes }),
  written,
  ...factsOf(gameId),
});

describe('PatternFilter: the lines kept for confirmation', () => {
  it('hands back each line with its result and day as given, across reads that grow the rows; nothing for a row without them', () => {
    const filter = new PatternFilter();
    const lines = new Map<number, Uint8Array>();
    // Three reads: the first reserved (as the service does), the others taken a game at a time (the rows grow as they fill).
    const reads = [Array.from({ length: 300 }, (_, i) => i + 1), Array.from({ length: 150 }, (_, i) => i + 301), [451, 452]];
    for (const [r, ids] of reads.entries()) {
      const rows = ids.map((id) => {
        lines.set(id, line(id, 10 + (id % 60)));
        return rowOf(id, lines.get(id)!, String(100 + id));
      });
      const given = new Map(ids.map((id) => [id, { changes: lines.get(id)!, written: String(100 + id) }]));
      if (r === 0) {
        filter.reserve(rows);
        filter.take(rows, given);
      } else for (const row of rows) filter.take([row], given);
    }
    for (const [id, changes] of lines) {
      const { facts, result, played } = factsOf(id);
      const kept = filter.kept(id);
      expect(kept === null ? null : { changes: Buffer.from(kept.changes), result: kept.result, played: kept.played }).toEqual(facts ? { changes: Buffer.from(changes), result, played } : null);
    }
    expect(filter.kept(999)).toBeNull();
    const kept = [...lines.values()].reduce((sum, changes) => sum + changes.length, 0);
    expect(filter.lineBytes).toBeGreaterThanOrEqual(kept);
  });

  it('keeps no line for a game whose line was written by another transaction than its row, and the new line when the game is written again', () => {
    const filter = new PatternFilter();
    const old = line(1, 20);
    const newer = line(2, 30);
    // The row of transaction 10, the line already of transaction 11: no line kept for either.
    filter.take([rowOf(1, old, '10')], new Map([[1, { changes: newer, written: '11' }]]));
    expect(filter.kept(1)).toBeNull();
    // The next read brings transaction 11's row and line.
    filter.take([rowOf(1, newer, '11')], new Map([[1, { changes: newer, written: '11' }]]));
    expect(Buffer.from(filter.kept(1)!.changes)).toEqual(Buffer.from(newer));
    // Two rows taken (the version a search's kept matches are tied to); the same row read again is not one more.
    expect(filter.version).toBe(2);
    filter.take([rowOf(1, newer, '11')], new Map([[1, { changes: newer, written: '11' }]]));
    expect(filter.version).toBe(2);
  });
});
