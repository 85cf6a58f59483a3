export * from './illegal.js';
export * from './types.js';
export { GoPosition } from './position.js';
export { areaScore } from './scoring.js';
export { neighbourTable } from './neighbours.js';
export { replayTree } from './tree.js';
export type { GoMoveNode, GoSetupPoint, ReplayedMove } from './tree.js';
