import { rankText } from '../formats/families/go/ranks.js';
import { moverInIdentityPly } from '../formats/families/positions.js';
import type { Family } from '../formats/plugin.js';
import type { ExplorerMoveDto, PositionHistoryDto, YearGamesDto } from './dto/position-answers.dto.js';
import type { MoveYearRow, MoverLevel, YearRow } from './positions.repository.js';

/*
 * A position's history (GET/POST /positions/history) and the explorer by year (`by=year`): the games
 * reaching a position counted by the year they were played, each game once, at its first arrival.
 */

/** The history's answer from the repository's rows (a year, or null for the undated, and its games). */
export function historyOf(rows: readonly YearRow[]): PositionHistoryDto {
  const years = rows.filter((row) => row.year !== null).map((row) => ({ year: row.year as number, games: row.games }));
  const undated = rows.filter((row) => row.year === null).reduce((sum, row) => sum + row.games, 0);
  return { years: years.sort((a, b) => a.year - b.year), undated, games: years.reduce((sum, row) => sum + row.games, undated) };
}

/** Whose level the explorer by year averages (Go's ranks, every other family's ratings), and how a ply's mover is known. */
export function levelOf(family: Family): MoverLevel {
  return { level: family === 'go' ? 'rank' : 'rating', moverInPly: moverInIdentityPly(family) };
}

/**
 * Adds to each move (by its bytes' hex) its games by year, their average year, and the average rank
 * (Go) or rating of the players who played it, from the rows of `movesByYear`. Rows of games that
 * ended in the position (no move) have no move of the map and are left out.
 */
export function addYears(moves: ReadonlyMap<string, ExplorerMoveDto>, rows: readonly MoveYearRow[], family: Family): void {
  const sums = new Map<string, { years: Map<number, number>; yearSum: number; dated: number; levelSum: number; levels: number }>();
  for (const row of rows) {
    const hex = row.move.toString('hex');
    if (!moves.has(hex)) continue;
    let sum = sums.get(hex);
    if (!sum) {
      sum = { years: new Map(), yearSum: 0, dated: 0, levelSum: 0, levels: 0 };
      sums.set(hex, sum);
    }
    if (row.year !== null) {
      sum.years.set(row.year, (sum.years.get(row.year) ?? 0) + row.games);
      sum.yearSum += row.year * row.games;
      sum.dated += row.games;
    }
    sum.levelSum += row.levelSum;
    sum.levels += row.levels;
  }
  for (const [hex, move] of moves) {
    const sum = sums.get(hex) ?? { years: new Map<number, number>(), yearSum: 0, dated: 0, levelSum: 0, levels: 0 };
    const years: YearGamesDto[] = [...sum.years].map(([year, games]) => ({ year, games })).sort((a, b) => a.year - b.year);
    move.years = years;
    move.averageYear = sum.dated === 0 ? null : roundTo(sum.yearSum / sum.dated, 1);
    const level = sum.levels === 0 ? null : sum.levelSum / sum.levels;
    if (levelOf(family).level === 'rank') {
      move.averageRank = level === null ? null : roundTo(level, 1);
      move.averageRankText = level === null ? null : rankText(Math.round(level));
    } else {
      move.averageRating = level === null ? null : Math.round(level);
    }
  }
}

function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}
