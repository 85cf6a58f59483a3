import { readFileSync } from 'node:fs';
import { FormatError } from '../src/core/errors.js';
import { GoInterchangeGame, withoutVariations } from '../src/formats/families/go/index.js';
import { gofansXmlPlugin } from '../src/formats/plugins/gofans-xml/plugin.js';
import { DEFAULT_LIMITS } from '../src/core/limits.js';
import { sgfGoPlugin } from '../src/formats/plugins/sgf-go/plugin.js';
import { filesUnder } from '../test/support/files.js';

const FOLDER = 'test/fixtures/realdata/go/gnugo_regression_games';

export interface GoFansCorpusGame {
  readonly path: string;
  /** The main line, as the archive's SGF reader gives it. */
  readonly game: GoInterchangeGame;
  /** The main line written as GoFans 1.1 by the archive's conversion (Points regenerated). */
  readonly xml: string;
}

/**
 * GNU Go's regression games as GoFans 1.1, through the archive's own conversion (SGF → the Go
 * interchange model, main line only → GoFans 1.1); the games GoFans cannot hold (setup stones) are
 * left out.
 */
export async function gnugoGamesAsGoFans11(): Promise<GoFansCorpusGame[]> {
  const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
  const format = gofansXmlPlugin.formats.find((f) => f.version === '1.1')!;
  const games: GoFansCorpusGame[] = [];
  for (const path of filesUnder(FOLDER, '.sgf')) {
    const game = withoutVariations((await sgfGoPlugin.toInterchange!({ bytes: readFileSync(path) }, options)) as GoInterchangeGame);
    try {
      games.push({ path, game, xml: String((await gofansXmlPlugin.fromInterchange!(game, { ...options, format })).content) });
    } catch (error) {
      if (!(error instanceof FormatError && error.code === 'export.does_not_fit')) throw error;
    }
  }
  return games;
}

/** The main-line moves of an interchange game, in order. */
export function mainLineMoves(game: GoInterchangeGame): GoInterchangeGame['moves'][number][] {
  const line = [];
  for (let move = game.moves[0]; move !== undefined; move = move.next[0]) line.push(move);
  return line;
}
