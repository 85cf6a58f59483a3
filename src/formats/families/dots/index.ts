/**
 * What every Dots format makes of a replayed game, kept once: replay plies and their details,
 * the result in words, the grounding end. Outcomes and verdict problems are in
 * `../problems/dots.ts`. Notation stays in each format's folder (passed in as a `CellName`).
 */
export { dotsPlyDetails, dotsReplayPly, surroundingMoves } from './plies.js';
export type { CellName, CellPair, DotsPlyDetails, DotsPlyInput, DotsSurroundCells } from './plies.js';
export { dotsResultText, dotsScoreText } from './result.js';
export type { DotsEnding } from './result.js';
export { scoresAfterGrounding, ungroundedDots } from './grounding.js';
export { asDotsGame, isCross, notConvertible, refuseBranchesAndSnapshots, variationCount } from './interchange.js';
export type {
  DotsInterchangeField,
  DotsInterchangeGame,
  DotsInterchangeMove,
  DotsInterchangePlayer,
  DotsInterchangeResult,
  DotsInterchangeRules,
  DotsSetupDot,
  DotsVariation,
} from './interchange.js';
export { dotsPositionTrack } from './positions.js';
export type { DotsTrackOptions } from './positions.js';
