import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatError } from '../../../src/core/errors.js';
import { DEFAULT_LIMITS } from '../../../src/core/limits.js';
import { SGF_DOTS_FORMAT, sgfDotsPlugin } from '../../../src/formats/plugins/sgf-dots/plugin.js';
import { VK_CODE_FORMAT, vkDotsPlugin } from '../../../src/formats/plugins/vk-dots/plugin.js';
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

/**
 * A corpus game (`folder/file.sgf`) as a VK game code, through the plugins' conversion (SGF →
 * the family's interchange model → VK code, records regenerated); null when it does not fit a
 * code (a 39x32 field, variations, a move out of turn, no field size).
 */
export async function vkCodeOf(name: string, root = DOTS_REALDATA): Promise<string | null> {
  const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
  try {
    const game = await sgfDotsPlugin.toInterchange!({ bytes: readFileSync(join(root, name)) }, { ...options, format: SGF_DOTS_FORMAT });
    return String((await vkDotsPlugin.fromInterchange!(game, { ...options, format: VK_CODE_FORMAT })).content);
  } catch (error) {
    if (error instanceof FormatError && error.code === 'export.does_not_fit') return null;
    throw error;
  }
}

/** A VK code without its surround records: the bare moves. */
export function movesOnly(code: string): string {
  return code.replace(/#[^#]*#[^#]*#[^#]*#[^#]*#/g, '');
}
