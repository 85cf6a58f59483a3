import { GoFansDraftMove, writeGoFans11 } from './gofans-writer.js';
import { SgfMainLine, SgfMove, readSgfMainLine } from './sgf-main-line.js';

/**
 * Converts the main line of an SGF game without setup stones to GoFans 1.1: player 0 plays black
 * (PB), player 1 white (PW). The SGF result decides Points: a resignation (`B+R`, `W+Resign`)
 * gives the loser -1 and, as the format writes a resignation, a final pass by the loser when the
 * game does not end with one; otherwise Points are 0 (the SGF carries no area score).
 */
export interface ConvertedGame {
  readonly xml: string;
  readonly sgf: SgfMainLine;
  /** The moves as written, including an added resignation pass. */
  readonly moves: readonly SgfMove[];
}

export function sgfToGoFans11(sgfText: string, source: string): ConvertedGame | null {
  const sgf = readSgfMainLine(sgfText);
  if (sgf.hasSetup) return null;
  const result = sgf.root.RE ?? '';
  const resigned = /^([BW])\+R(esign)?$/i.exec(result.trim());
  const loser = resigned ? (resigned[1].toUpperCase() === 'B' ? 1 : 0) : null;
  const moves: SgfMove[] = [...sgf.moves];
  const loserColor = loser === 0 ? 'black' : 'white';
  const lastOfLoser = [...moves].reverse().find((m) => m.color === loserColor);
  if (loser !== null && (lastOfLoser === undefined || lastOfLoser.point !== null)) moves.push({ color: loserColor, point: null });

  const draftMoves: GoFansDraftMove[] = moves.map((m) => ({
    playerId: m.color === 'black' ? 0 : 1,
    color: m.color,
    point: m.point,
  }));
  const komi = sgf.root.KM !== undefined && /^[+-]?\d+(\.\d+)?$/.test(sgf.root.KM.trim()) ? sgf.root.KM.trim() : undefined;
  const fields: [string, string][] = [['source', source]];
  for (const [key, name] of [['EV', 'event'], ['DT', 'date'], ['PC', 'place'], ['RE', 'result']] as const) {
    if (sgf.root[key]) fields.push([name, sgf.root[key]]);
  }
  const xml = writeGoFans11(
    {
      boardSize: sgf.size,
      komi,
      players: [
        { id: 0, name: sgf.root.PB ?? 'Black', points: loser === 0 ? '-1' : '0' },
        { id: 1, name: sgf.root.PW ?? 'White', points: loser === 1 ? '-1' : '0' },
      ],
      headerFields: fields,
    },
    draftMoves,
  );
  return { xml, sgf, moves };
}
