/** Russian checkers: a pure rules engine (no I/O, no notation), used by the BARS and PDN format plugins. */
export * from './illegal.js';
export * from './squares.js';
export * from './pieces.js';
export * from './position.js';
export * from './move.js';
export * from './captures.js';
export * from './quiet-moves.js';
export * from './legal-moves.js';
export * from './apply-move.js';
export * from './judge-move.js';
export * from './outcome.js';
