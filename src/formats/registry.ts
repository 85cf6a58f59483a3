import type { FormatPlugin } from './plugin.js';
import { pegSolitairePlugin } from './peg-solitaire/peg-solitaire.plugin.js';
import { vkDotsPlugin } from './vk-dots/plugin.js';
import { dotsServerPlugin } from './dots-server/plugin.js';
import { dotsTranscriptPlugin } from './dots-transcript/plugin.js';
import { gofansXmlPlugin } from './gofans-xml/plugin.js';
import { barsCheckersPlugin } from './bars-checkers/plugin.js';
import { pdnDraughtsPlugin } from './pdn-draughts/plugin.js';
import { sgfDotsPlugin } from './sgf-dots/plugin.js';
import { sgfGoPlugin } from './sgf-go/plugin.js';

/**
 * Every format the archive reads. Adding a format is one folder under `src/formats/` and one line here.
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
