/** The vk-dots format plugin: what the archive and its registry use of it. */
export { vkDotsPlugin } from './plugin.js';
