import type { FormatPlugin } from './plugin.js';
import { pegSolitairePlugin } from './plugins/peg-solitaire/index.js';
import { vkDotsPlugin } from './plugins/vk-dots/index.js';
import { dotsServerPlugin } from './plugins/dots-board-state/index.js';
import { dotsTranscriptPlugin } from './plugins/dots-transcript/index.js';
import { gofansXmlPlugin } from './plugins/gofans-xml/index.js';
import { barsCheckersPlugin } from './plugins/bars-checkers/index.js';
import { pdnDraughtsPlugin } from './plugins/pdn-draughts/index.js';
import { sgfDotsPlugin } from './plugins/sgf-dots/index.js';
import { sgfGoPlugin } from './plugins/sgf-go/index.js';

/**
 * Every format the archive reads. Adding a format is one folder under `src/formats/plugins/`, entered through its `index.ts`, and one line here.
 */
export const FORMAT_PLUGINS: readonly FormatPlugin[] = [
  gofansXmlPlugin,
  barsCheckersPlugin,
  pdnDraughtsPlugin,
  vkDotsPlugin,
  dotsServerPlugin,
  dotsTranscriptPlugin,
  pegSolitairePlugin,
  sgfDotsPlugin,
  sgfGoPlugin,
];
