import { GameAnalysisEntity } from './game-analysis.entity.js';
import { GameFileEntity } from './game-file.entity.js';
import { GamePlayerEntity } from './game-player.entity.js';
import { GameEntity } from './game.entity.js';

export { GameAnalysisEntity, GameEntity, GameFileEntity, GamePlayerEntity };

export const ENTITIES = [GameEntity, GameFileEntity, GameAnalysisEntity, GamePlayerEntity];
