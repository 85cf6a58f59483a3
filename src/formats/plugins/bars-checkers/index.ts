/** The bars-checkers format plugin: what the archive and its registry use of it. */
export { barsCheckersPlugin } from './plugin.js';
