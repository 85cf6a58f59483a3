import 'reflect-metadata';
import { run as archive } from './archive.js';
import { run as checkers } from './checkers.js';
import { run as cluster } from './cluster.js';
import { run as dots } from './dots.js';
import { run as dotsServer } from './dots-server.js';
import { run as draughtsPatterns } from './draughts-patterns.js';
import { run as exportGames } from './export.js';
import { run as fair } from './fair.js';
import { run as go } from './go.js';
import { run as identity } from './identity.js';
import { run as imports } from './imports.js';
import { run as importSpool } from './import-spool.js';
import { run as interchange } from './interchange.js';
import { run as pegSolitaire } from './peg-solitaire.js';
import { run as patterns } from './patterns.js';
import { run as load } from './load.js';
import { run as migration } from './migration.js';
import { run as positionKeys } from './position-keys.js';
import { run as positions } from './positions.js';
import { run as positionsTree } from './positions-tree.js';
import { run as rss } from './rss.js';
import { run as search } from './search.js';
import { run as storage } from './storage.js';
import { run as tags } from './tags.js';
import { run as texts } from './texts.js';
import { run as tokens } from './tokens.js';

/**
 * Runs the benchmarks and prints their figures: `npm run bench [name…]` with names from the table
 * below (all when none is given). Speed goals live here, never in unit tests.
 */
const BENCHMARKS: Record<string, () => Promise<void>> = {
  go,
  dots,
  'dots-server': dotsServer,
  checkers,
  'peg-solitaire': pegSolitaire,
  'position-keys': positionKeys,
  positions,
  'positions-tree': positionsTree,
  patterns,
  'draughts-patterns': draughtsPatterns,
  identity,
  archive,
  export: exportGames,
  imports,
  'import-spool': importSpool,
  interchange,
  rss,
  search,
  tags,
  storage,
  texts,
  load,
  fair,
  migration,
  cluster,
  tokens,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}
for (const [name, run] of Object.entries(BENCHMARKS)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n== ${name}`);
  await run();
}
