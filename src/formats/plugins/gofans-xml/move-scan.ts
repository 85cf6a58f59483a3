import type { ReadLimits } from '../../../core/limits.js';
import { pliesExceeded, variationDepthExceeded } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';
import { isGoFansVersion, versionTraits } from './schemas.js';
import { collapseXmlSpace, decodeEntities } from './xml-tree.js';

/*
 * The cheap look at a GoFans document taken before any validator or tree is built: one pass over the
 * text that keeps no more than a small frame per open element and never throws on malformed input
 * (it stops, and the validator reports what is wrong). It reads Publisher and Version; for a GoFans
 * file of a known version it counts the moves of the tree and the nesting of its variations, and
 * refuses the file at the first move past a bound.
 */

const OTHER = 0;
const ROOT = 1;
const BODY = 2;
const MOVE = 3;

interface Frame {
  readonly kind: number;
  /** Moves seen directly inside (Body, move). */
  moves: number;
  /** Variation depth of a move (0 on the main line); 0 for Body. */
  readonly depth: number;
  /** Element children seen (the root only). */
  children: number;
}

/**
 * Refuses a GoFans document with more moves than `limits.maxPlies` or variations nested deeper than
 * `limits.maxVariationDepth`, at the move that crosses the bound. Other documents (other publishers,
 * unknown versions, malformed text) pass untouched: they are not replayed.
 */
export function checkGoFansBounds(text: string, limits: ReadLimits): void {
  const stack: Frame[] = [];
  let rootSeen = false;
  /** Which of Publisher (0) / Version (1) is collecting text, or -1. */
  let collecting = -1;
  const heads = ['', ''];
  let nested: boolean | undefined;
  let moves = 0;
  /** Open elements inside an element the scan does not look into (Header fields, removes): counted, not kept. */
  let skipped = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    if (lt < 0) break;
    if (collecting >= 0) heads[collecting] += decodeEntities(text.slice(i, lt));
    i = lt;
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return;
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i + 9);
      if (end < 0) return;
      if (collecting >= 0) heads[collecting] += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith('<?', i) || text.startsWith('<!', i)) {
      const end = text.indexOf(text[i + 1] === '?' ? '?>' : '>', i + 2);
      if (end < 0) return;
      i = end + (text[i + 1] === '?' ? 2 : 1);
    } else if (text[i + 1] === '/') {
      const end = text.indexOf('>', i + 2);
      if (end < 0) return;
      i = end + 1;
      if (skipped > 0) {
        skipped--;
        continue;
      }
      const closed = stack.pop();
      if (!closed) return;
      if (collecting >= 0 && stack.length === 1) {
        collecting = -1;
        // Publisher and Version are xs:token: blanks collapse and trim.
        if (stack[0].children === 2) {
          const publisher = collapseXmlSpace(heads[0]);
          const version = collapseXmlSpace(heads[1]);
          if (publisher !== 'GoFans' || !isGoFansVersion(version)) return;
          nested = versionTraits(version).nested;
        }
      }
    } else {
      const tag = startTag(text, i);
      if (tag === null) return;
      const parent = stack[stack.length - 1];
      if (skipped > 0 || parent?.kind === OTHER) {
        if (collecting >= 0) return; // Publisher and Version hold text only
        i = tag.end;
        if (!tag.selfClosing) skipped++;
        continue;
      }
      let frame: Frame;
      if (!parent) {
        if (rootSeen) return;
        rootSeen = true;
        frame = { kind: ROOT, moves: 0, depth: 0, children: 0 };
      } else if (parent.kind === ROOT) {
        const index = parent.children++;
        if (index < 2) {
          if (tag.name !== (index === 0 ? 'Publisher' : 'Version')) return;
          collecting = index;
        } else if (nested === undefined) {
          return;
        }
        frame = { kind: index === 3 && tag.name === 'Body' ? BODY : OTHER, moves: 0, depth: 0, children: 0 };
      } else if (tag.name === 'move' && (parent.kind === BODY || (parent.kind === MOVE && nested === true))) {
        moves++;
        if (moves > limits.maxPlies) throw pliesExceeded(limits, locate(text, i));
        const index = parent.moves++;
        // In 1.x/2.1 the moves of Body are one line; in 1.2/2.2 every move after the first of its
        // parent starts a variation, one level deeper than the parent's line.
        const depth = nested && index > 0 ? parent.depth + 1 : parent.depth;
        if (depth > limits.maxVariationDepth) throw variationDepthExceeded(limits, locate(text, i));
        frame = { kind: MOVE, moves: 0, depth, children: 0 };
      } else {
        frame = { kind: OTHER, moves: 0, depth: 0, children: 0 };
      }
      i = tag.end;
      if (!tag.selfClosing) stack.push(frame);
    }
  }
}

/** A start tag's name and end, skipping quoted attribute values (which may hold `>`); null if unterminated. */
function startTag(text: string, start: number): { name: string; end: number; selfClosing: boolean } | null {
  let i = start + 1;
  while (i < text.length && !isNameEnd(text.charCodeAt(i))) i++;
  const name = text.slice(start + 1, i);
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const close = text.indexOf(c, i + 1);
      if (close < 0) return null;
      i = close + 1;
    } else if (c === '>') {
      return { name, end: i + 1, selfClosing: text[i - 1] === '/' };
    } else {
      i++;
    }
  }
  return null;
}

function isNameEnd(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 47 /* / */ || code === 62 /* > */;
}
