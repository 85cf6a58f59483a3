/**
 * Pattern search's model of a board (`src/rules/patterns.ts`: point states, a game's line as the
 * changes of its points, patterns, placements, the first match; `src/rules/pattern-span.ts`: the
 * match within a span of plies, with the side to move and numbered moves), as the archive uses it,
 * and the largest board side of each family with patterns.
 */
export * from '../../rules/patterns.js';
export * from '../../rules/pattern-span.js';
export { MAX_BOARD_SIZE as GO_MAX_SIDE } from '../../rules/go/index.js';
export { MAX_SIDE as DOTS_MAX_SIDE } from '../../rules/dots/index.js';
