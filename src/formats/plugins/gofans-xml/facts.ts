import { calendarDate } from '../../families/go/index.js';
import type { GameFacts } from '../../plugin.js';
import type { GoFansGame } from './model.js';
import { XmlElement, collapseXmlSpace } from './xml-tree.js';

/**
 * The game's facts as the file records them (docs/formats/gofans-xml.md, "Facts"): the board is
 * square, `<boardSize>` or the format's default 19; `event`, `date` and `rules` are the free Header
 * elements of those names after `<players>` (first one with text only; null when absent, empty or
 * holding elements). A date that is not a real calendar day in a form read below is null.
 */
export function goFansFacts(game: GoFansGame): GameFacts {
  const header = game.root.children[2];
  const playersIndex = header.children.findIndex((child) => child.name === 'players');
  const free = header.children.slice(playersIndex + 1);
  const field = (name: string): string | null => {
    for (const element of free) {
      if (element.name !== name) continue;
      const value = plainText(element);
      if (value !== null) return value;
    }
    return null;
  };
  const date = field('date');
  return {
    boardWidth: game.boardSize,
    boardHeight: game.boardSize,
    datePlayed: date === null ? null : calendarDate(date),
    event: field('event'),
    rules: field('rules'),
  };
}

/** Free Header elements written in words about the whole game (the names the conversions use for SGF's GC, PC, GN, AN and SO). */
const TEXT_ELEMENTS = new Set(['gameComment', 'place', 'gameName', 'annotator', 'source']);

/**
 * What the file writes in words about the game, for the full-text index (unbounded: the caller
 * bounds it): every free Header element after `<players>` named in {@link TEXT_ELEMENTS} that holds
 * text and no elements, at ply 0, in file order, its text as written. The format has no comments on
 * moves.
 */
export function goFansTexts(game: GoFansGame): { ply: number; text: string }[] {
  const header = game.root.children[2];
  const playersIndex = header.children.findIndex((child) => child.name === 'players');
  return header.children
    .slice(playersIndex + 1)
    .filter((element) => TEXT_ELEMENTS.has(element.name) && element.children.length === 0)
    .map((element) => ({ ply: 0, text: element.text }));
}

function plainText(element: XmlElement): string | null {
  if (element.children.length > 0) return null;
  const value = collapseXmlSpace(element.text);
  return value === '' ? null : value;
}
