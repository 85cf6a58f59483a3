/**
 * Pattern search's model of a board (`src/rules/patterns.ts`: point states, a game's line as the
 * changes of its points, patterns, placements, the first match), as the archive uses it, and the
 * largest board side of each family with patterns.
 */
export * from '../../rules/patterns.js';
export { MAX_BOARD_SIZE as GO_MAX_SIDE } from '../../rules/go/index.js';
export { MAX_SIDE as DOTS_MAX_SIDE } from '../../rules/dots/index.js';
