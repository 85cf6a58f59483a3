/** The sgf-dots format plugin: what the archive and its registry use of it. */
export { sgfDotsPlugin } from './plugin.js';
