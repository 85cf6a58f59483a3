/** The pdn-draughts format plugin: what the archive and its registry use of it. */
export { pdnDraughtsPlugin } from './plugin.js';
