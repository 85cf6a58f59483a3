import { CreateArchive1763700000000 } from './1763700000000-CreateArchive.js';
import { PlayerNameIndexWithoutPendingList1763800000000 } from './1763800000000-PlayerNameIndexWithoutPendingList.js';
import { PlayerNameKeys1763900000000 } from './1763900000000-PlayerNameKeys.js';
import { PlayerOutcomes1764000000000 } from './1764000000000-PlayerOutcomes.js';
import { GameFacts1764100000000 } from './1764100000000-GameFacts.js';
import { LeanStorage1764200000000 } from './1764200000000-LeanStorage.js';
import { PlayerNames1764300000000 } from './1764300000000-PlayerNames.js';
import { NameStatistics1764400000000 } from './1764400000000-NameStatistics.js';
import { Uploads1764500000000 } from './1764500000000-Uploads.js';
import { ResultFacts1764600000000 } from './1764600000000-ResultFacts.js';
import { Imports1764700000000 } from './1764700000000-Imports.js';
import { CompactGames1764800000000 } from './1764800000000-CompactGames.js';
import { DotsServer1764900000000 } from './1764900000000-DotsServer.js';
import { ImportLeases1765100000000 } from './1765100000000-ImportLeases.js';
import { Positions1765000000000 } from './1765000000000-Positions.js';
import { Patterns1765300000000 } from './1765300000000-Patterns.js';
import { GameIdentities1765200000000 } from './1765200000000-GameIdentities.js';
import { DotsCluster1765400000000 } from './1765400000000-DotsCluster.js';
import { IndexColumnStatistics1765500000000 } from './1765500000000-IndexColumnStatistics.js';
import { PositionPostings1765600000000 } from './1765600000000-PositionPostings.js';
import { PostingBits1765700000000 } from './1765700000000-PostingBits.js';
import { OpeningPositions1765800000000 } from './1765800000000-OpeningPositions.js';
import { Accounts1765900000000 } from './1765900000000-Accounts.js';
import { DotsLogins1766000000000 } from './1766000000000-DotsLogins.js';
import { RateLimits1766100000000 } from './1766100000000-RateLimits.js';
import { PositionRemovals1766200000000 } from './1766200000000-PositionRemovals.js';

/** Every migration, oldest first. Listed by hand so the same list serves the build and the tests. */
export const MIGRATIONS = [CreateArchive1763700000000, PlayerNameIndexWithoutPendingList1763800000000, PlayerNameKeys1763900000000, PlayerOutcomes1764000000000, GameFacts1764100000000, LeanStorage1764200000000, PlayerNames1764300000000, NameStatistics1764400000000, Uploads1764500000000, ResultFacts1764600000000, Imports1764700000000, CompactGames1764800000000, DotsServer1764900000000, Positions1765000000000, ImportLeases1765100000000, GameIdentities1765200000000, Patterns1765300000000, DotsCluster1765400000000, IndexColumnStatistics1765500000000, PositionPostings1765600000000, PostingBits1765700000000, OpeningPositions1765800000000, Accounts1765900000000, DotsLogins1766000000000, RateLimits1766100000000, PositionRemovals1766200000000];
