/*
 * What the Go formats (GoFans XML, SGF) share once they have a game tree: the replay with the rules
 * engine, the end of the main line, replay rows with the capture tally, result words and outcomes,
 * calendar dates.
 */
export { endsWithTwoPasses, replayGoGame } from './replay.js';
export type { GoGameReplay, GoPoint, ReplayedGoMove } from './replay.js';
export { goReplayPlies } from './plies.js';
export type { GoPlies, GoPlyInput } from './plies.js';
export { drawText, outcomesForResult, winText } from './result.js';
export type { GoColor, GoWin } from './result.js';
export { calendarDate } from './dates.js';
