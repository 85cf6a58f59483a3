import { GameAnalysisEntity } from './game-analysis.entity.js';
import { GamePlayerEntity } from './game-player.entity.js';
import { GameReplayEntity } from './game-replay.entity.js';
import { GameEntity } from './game.entity.js';

export { GameAnalysisEntity, GameEntity, GamePlayerEntity, GameReplayEntity };

export const ENTITIES = [GameEntity, GameAnalysisEntity, GamePlayerEntity, GameReplayEntity];
