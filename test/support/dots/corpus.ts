import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DotsSgfGame, parseDotsSgf } from './dots-sgf.js';

export const DOTS_REALDATA = 'test/fixtures/realdata/dots';

export interface CorpusGame {
  /** `folder/file.sgf` under the real-data folder. */
  readonly name: string;
  readonly game: DotsSgfGame;
}

/** Every SGF Dots game of the real-data folder (paths relative to the repository root). */
export function loadDotsSgfCorpus(root = DOTS_REALDATA): CorpusGame[] {
  const games: CorpusGame[] = [];
  for (const folder of readdirSync(root).sort()) {
    for (const file of readdirSync(join(root, folder)).sort()) {
      if (!file.endsWith('.sgf')) continue;
      games.push({ name: `${folder}/${file}`, game: parseDotsSgf(readFileSync(join(root, folder, file), 'utf8')) });
    }
  }
  return games;
}
