import type { IndexDefinition } from './game-index.js';
import { DRAUGHTS_INDEX } from './draughts/draughts.index.js';
import { FACTS_INDEX } from './facts/facts.index.js';
import { IDENTITIES_INDEX } from './identities/identities.index.js';
import { PATTERNS_INDEX } from './patterns/patterns.index.js';
import { PLAYERS_INDEX } from './players/players.index.js';
import { POSITIONS_INDEX } from './positions/positions.index.js';
import { RANKS_INDEX } from './ranks/ranks.index.js';
import { TEXTS_INDEX } from './texts/texts.index.js';

/**
 * Every index the archive keeps of its games (src/indexes/game-index.ts), in the order the writer
 * writes them. Adding an index is one folder under `src/indexes/` and one line here.
 */
export const GAME_INDEXES: readonly IndexDefinition[] = [FACTS_INDEX, PLAYERS_INDEX, POSITIONS_INDEX, IDENTITIES_INDEX, PATTERNS_INDEX, TEXTS_INDEX, DRAUGHTS_INDEX, RANKS_INDEX];
