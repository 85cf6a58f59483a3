/** The peg-solitaire format plugin: what the archive and its registry use of it. */
export { pegSolitairePlugin } from './plugin.js';
