export { DOTS_ILLEGAL } from './illegal.js';
export type { DotsIllegal } from './illegal.js';
export { DotsField, MAX_SIDE, MIN_SIDE } from './field.js';
export type { Cell } from './field.js';
export { DotsBoard, BORDER, EMPTY } from './board.js';
export { DotsGame } from './game.js';
export type { DotsRules, IllegalReason, PlayOutcome, Surround } from './game.js';
export { scorePosition } from './position.js';
export type { Position, PositionScore } from './position.js';
