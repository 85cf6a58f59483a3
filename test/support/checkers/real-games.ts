import { readFileSync } from 'node:fs';
import { BARS_FORMAT, barsCheckersPlugin } from '../../../src/formats/plugins/bars-checkers/plugin.js';
import type { CheckersInterchange } from '../../../src/formats/families/checkers/interchange.js';
import { FormatError } from '../../../src/core/errors.js';
import { DEFAULT_LIMITS } from '../../../src/core/limits.js';
import { pdnDraughtsPlugin } from '../../../src/formats/plugins/pdn-draughts/plugin.js';

/**
 * The games of a real PDN file as BARS files, for the BARS tests and benchmarks: split and read
 * into the family's model by the PDN plugin, written by the BARS plugin (the conversions of
 * `src/formats/*`, as `GET /games/{id}/export` makes them). Plain functions, no test framework.
 */
export interface RealGame {
  /** 1-based position of the game in the file. */
  readonly index: number;
  /** The game in the model, null when it does not convert. */
  readonly model: CheckersInterchange | null;
  /** The BARS file, null when the game does not convert. */
  readonly bars: string | null;
  /** Why the game does not convert. */
  readonly refusal: FormatError | null;
}

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };

export async function realGamesAsBars(path: string): Promise<RealGame[]> {
  const bytes = readFileSync(path);
  const games: RealGame[] = [];
  for (const [i, slice] of pdnDraughtsPlugin.split!({ bytes }, options).entries()) {
    try {
      const model = (await pdnDraughtsPlugin.toInterchange!({ bytes: bytes.subarray(slice.start, slice.end) }, options)) as CheckersInterchange;
      const file = await barsCheckersPlugin.fromInterchange!(model, { ...options, format: BARS_FORMAT });
      games.push({ index: i + 1, model, bars: file.content as string, refusal: null });
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      games.push({ index: i + 1, model: null, bars: null, refusal: error });
    }
  }
  return games;
}
