import type { GoFansGame } from './model.js';
import type { GoFansReplay } from './replay.js';
import { GoFansVersion, versionTraits } from './schemas.js';
import { attributeNode, contentEnd } from './xml-tree.js';

/** 1.x carry no Removes; their regenerated form is the 2.x version with the same shape. */
export function regeneratedVersion(version: GoFansVersion): GoFansVersion {
  return version === '1.1' ? '2.1' : version === '1.2' ? '2.2' : version;
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The file with regenerated Removes (on every move of every line) and Points, as a 2.x version
 * (or as `version`, which must have the game's shape: flat or nested; a version without Removes
 * gets none). Done by splicing the original text, so everything else (header fields, comments,
 * layout, attribute order) stays exactly as uploaded.
 */
export function regenerateGoFans(
  text: string,
  game: GoFansGame,
  replay: GoFansReplay,
  version: GoFansVersion = regeneratedVersion(game.version),
): { version: GoFansVersion; content: string } {
  const edits: Edit[] = [];
  const withRemoves = versionTraits(version).removes;
  if (version !== game.version) {
    const v = game.versionElement;
    edits.push({ start: v.startTagEnd, end: contentEnd(text, v), text: version });
  }
  for (const player of game.players) {
    const regenerated = replay.points[player.seat];
    const points = attributeNode(player.element, 'points');
    if (regenerated === null || !points) continue;
    edits.push({ start: points.valueStart, end: points.valueEnd, text: String(regenerated) });
  }
  for (const m of replay.moves) {
    const element = m.move.element;
    if (m.move.removesElement) edits.push({ start: m.move.removesElement.start, end: m.move.removesElement.end, text: '' });
    if (!withRemoves || m.removes.length === 0) continue;
    const removes = `<removes>${m.removes.map((p) => `<remove x="${p.x}" y="${p.y}"/>`).join('')}</removes>`;
    if (element.selfClosing) {
      edits.push({ start: element.startTagEnd - 2, end: element.startTagEnd, text: `>${removes}</move>` });
    } else {
      edits.push({ start: element.startTagEnd, end: element.startTagEnd, text: removes });
    }
  }
  // In text order; at one offset an insertion (empty range) goes before a removal starting there.
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  const pieces: string[] = [];
  let cursor = 0;
  for (const edit of edits) {
    pieces.push(text.slice(cursor, edit.start), edit.text);
    cursor = edit.end;
  }
  pieces.push(text.slice(cursor));
  return { version, content: pieces.join('') };
}
