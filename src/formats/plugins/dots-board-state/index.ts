/** The dots-board-state format plugin: what the archive and its registry use of it. */
export { dotsServerPlugin } from './plugin.js';
