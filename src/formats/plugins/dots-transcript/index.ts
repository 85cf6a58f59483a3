/** The dots-transcript format plugin: what the archive and its registry use of it. */
export { dotsTranscriptPlugin } from './plugin.js';
