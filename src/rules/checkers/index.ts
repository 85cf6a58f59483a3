/** Russian checkers: a pure rules engine (no I/O), used by the BARS format plugin and the PDN test converter. */
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
