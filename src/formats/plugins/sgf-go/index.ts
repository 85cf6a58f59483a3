/** The sgf-go format plugin: what the archive and its registry use of it. */
export { sgfGoPlugin } from './plugin.js';
