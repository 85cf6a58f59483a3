/*
 * What the Go formats (GoFans XML, SGF) share once they have a game tree: the replay with the rules
 * engine, the end of the main line, replay rows with the capture tally, result words and outcomes,
 * calendar dates, and the family's interchange model for conversions between its formats.
 */
export { endsWithTwoPasses, replayGoGame } from './replay.js';
export type { GoGameReplay, GoPoint, ReplayedGoMove } from './replay.js';
export { GO_COLUMNS, goCoordinate, goPlyDetails, goReplayPlies, sgfLetters } from './plies.js';
export type { GoPlies, GoPlyDetails, GoPlyInput } from './plies.js';
export { drawText, goEnding, goResultNotation, outcomesForResult, parseGoResult, winText } from './result.js';
export type { GoColor, GoResult, GoWin } from './result.js';
export { calendarDate } from './dates.js';
export { countVariations, interchangeMoves, interchangeSetupCount, interchangeTree, withoutVariations } from './interchange.js';
export type { GoInterchangeGame, GoInterchangeMove, GoInterchangePlayer, GoInterchangeSetupPoint } from './interchange.js';
export { goLineTrack, goPositionTrack } from './positions.js';
export type { GoLineMove, GoTrackOptions } from './positions.js';
