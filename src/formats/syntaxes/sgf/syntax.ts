import { FormatError, SourceLocation } from '../../../core/errors.js';
import { ReadLimits, pliesExceeded, variationDepthExceeded } from '../../../core/limits.js';
import { NO_ITEMS, withItem } from '../../text/lists.js';
import { locate } from '../../text/decode.js';
import { SgfCharset, ValueDecoder, asciiText, characterWidth, resolveCharset } from './charset.js';

/*
 * SGF's syntax (FF[1]-FF[4]), knowing nothing of any game: a collection of game trees, each a
 * sequence of nodes followed by its variations; a node is `;` and properties; a property is an
 * identifier and one or more bracketed values. Read from the bytes, so every offset here is a byte
 * offset into the file (what `split()` and the archive's byte ranges need); values are decoded in
 * the file's charset (charset.ts). Iterative throughout: a game may nest thousands of trees.
 */

/** One bracketed value. */
export interface SgfValue {
  /** The value decoded, escapes resolved (`\]` → `]`, `\\` → `\`) and soft line breaks (`\` + newline) removed. */
  readonly text: string;
  /** Index in `text` of the first unescaped `:` (the separator of a composed value `aa:cc`), -1 when none. */
  readonly colon: number;
  /** Byte offsets of the value's content, between its brackets. */
  readonly start: number;
  readonly end: number;
}

export interface SgfProperty {
  /**
   * The identifier's upper-case letters: FF[1]-FF[3] files may write lower-case letters in
   * identifiers (`AddBlack`, `White`), which mean nothing (`AB`, `W`).
   */
  readonly id: string;
  /** The identifier as written. */
  readonly written: string;
  readonly values: readonly SgfValue[];
  /** Byte offset of the identifier. */
  readonly start: number;
}

export interface SgfNode {
  readonly properties: readonly SgfProperty[];
  /** The next node of the sequence, then the first node of each variation, in file order. */
  readonly children: SgfNode[];
  /** Byte offset of the node's `;`. */
  readonly start: number;
  /** Byte offset just past the node's last property (or its `;`). */
  end: number;
}

export interface SgfGameTree {
  /** The first node of the tree (the game's root node, holding GM, SZ, players…). */
  readonly root: SgfNode;
  /** Byte offsets of the tree: from its `(` to just past its `)`. */
  readonly start: number;
  readonly end: number;
  /** Nodes in the tree, every variation counted. */
  readonly nodes: number;
}

/** A game tree's byte range in the file (a {@link GameSlice} of the plugin contract). */
export interface SgfTreeRange {
  readonly start: number;
  readonly end: number;
}

export interface SgfCollection {
  readonly bytes: Uint8Array;
  readonly charset: SgfCharset;
  readonly trees: readonly SgfGameTree[];
  /** Values whose bytes are not valid text in the charset (decoded with U+FFFD), and where the first one is. */
  readonly invalidValues: number;
  readonly firstInvalidValueAt: number;
  /** Line, column and character offset of a byte offset, in the decoded text. */
  locate(byteOffset: number): SourceLocation;
  /** The decoded text of a byte range (replacement characters where it is not valid text). */
  text(start: number, end: number): string;
}

const OPEN = 0x28; // (
const CLOSE = 0x29; // )
const SEMICOLON = 0x3b;
const LEFT_BRACKET = 0x5b;
const RIGHT_BRACKET = 0x5d;
const BACKSLASH = 0x5c;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d || b === 0x0b || b === 0x0c;
}

function isUpper(b: number): boolean {
  return b >= 0x41 && b <= 0x5a;
}

function isLetter(b: number): boolean {
  return isUpper(b) || (b >= 0x61 && b <= 0x7a);
}

/** Where a tree is being read: the node its next nodes and variations hang from. */
interface Frame {
  /** The node before the tree (its variations hang from it); null for a game tree of the collection. */
  readonly parent: SgfNode | null;
  /** The last node of the tree's sequence so far. */
  tail: SgfNode | null;
  /** Variations (child trees) opened in this tree so far: a node may no longer follow. */
  childTrees: number;
  /** Variation depth of the tree's sequence: 0 on the main line, +1 for each non-first variation. */
  readonly depth: number;
  readonly open: number;
}

interface ScanResult {
  readonly trees: SgfGameTree[];
  readonly ranges: SgfTreeRange[];
}

/**
 * Reads an SGF collection. Text outside game trees (before the first, between and after them) is
 * skipped; a game tree starts at a `(` whose next non-blank character is `;`. Malformed trees are a
 * FormatError at the byte where they go wrong (line, column, offset in the decoded text).
 *
 * Bounds: a game tree with more nodes than `maxPlies + 1` (every node after the root counts as a
 * ply) → `limit.plies`; a variation nested deeper than `maxVariationDepth` (a tree that is not the
 * first child of its parent is one level deeper) → `limit.variation_depth`.
 */
export function parseSgf(bytes: Uint8Array, limits: ReadLimits): SgfCollection {
  const charset = resolveCharset(bytes, peekRootProperty(bytes, 'CA'));
  const decoder = new ValueDecoder(charset);
  const { trees } = scan(bytes, charset, decoder, limits, true);
  return collection(bytes, charset, decoder, trees);
}

/**
 * Where each game tree of a collection lies in the bytes, in file order, without building nodes or
 * decoding values. Checks the same syntax and bounds as {@link parseSgf}.
 */
export function splitSgf(bytes: Uint8Array, limits: ReadLimits): SgfTreeRange[] {
  const charset = resolveCharset(bytes, peekRootProperty(bytes, 'CA'));
  return scan(bytes, charset, new ValueDecoder(charset), limits, false).ranges;
}

function collection(bytes: Uint8Array, charset: SgfCharset, decoder: ValueDecoder, trees: SgfGameTree[]): SgfCollection {
  return {
    bytes,
    charset,
    trees,
    invalidValues: decoder.invalid,
    firstInvalidValueAt: decoder.firstInvalidAt,
    locate: (offset) => locateByte(bytes, decoder, offset),
    text: (start, end) => decoder.decodeLoosely(bytes, start, end),
  };
}

function locateByte(bytes: Uint8Array, decoder: ValueDecoder, offset: number): SourceLocation {
  const prefix = decoder.decodeLoosely(bytes, 0, Math.min(offset, bytes.length));
  return locate(prefix, prefix.length);
}

function scan(bytes: Uint8Array, charset: SgfCharset, decoder: ValueDecoder, limits: ReadLimits, build: boolean): ScanResult {
  const n = bytes.length;
  const trees: SgfGameTree[] = [];
  const ranges: SgfTreeRange[] = [];
  const fail = (message: string, offset: number): never => {
    throw FormatError.at(`SGF: ${message}`, locateByte(bytes, decoder, offset));
  };
  const nextNonBlank = (from: number): number => {
    let j = from;
    while (j < n && isSpace(bytes[j])) j++;
    return j;
  };

  let i = 0;
  while (i < n) {
    // Outside game trees: skip to the next `(` that opens one.
    const open = bytes.indexOf(OPEN, i);
    if (open < 0) break;
    if (bytes[nextNonBlank(open + 1)] !== SEMICOLON) {
      i = open + 1;
      continue;
    }
    const stack: Frame[] = [{ parent: null, tail: null, childTrees: 0, depth: 0, open }];
    let root: SgfNode | null = null;
    let nodes = 0;
    let node: SgfNode | null = null;
    i = open + 1;
    for (;;) {
      i = nextNonBlank(i);
      if (i >= n) fail(`the game tree opened here is not closed: the file ends inside it`, stack[stack.length - 1].open);
      const b = bytes[i];
      const frame = stack[stack.length - 1];
      if (b === SEMICOLON) {
        if (frame.childTrees > 0) fail('a node after a variation: a tree\'s nodes must all come before its variations', i);
        if (++nodes > limits.maxPlies + 1) throw pliesExceeded(limits, locateByte(bytes, decoder, i));
        if (build) {
          node = { properties: NO_ITEMS, children: NO_ITEMS, start: i, end: i + 1 };
          const above = frame.tail ?? frame.parent;
          if (above === null) root = node;
          else (above as Building).children = withItem(above.children, node);
          frame.tail = node;
        } else {
          frame.tail = frame.tail ?? PLACEHOLDER;
        }
        i++;
      } else if (b === OPEN) {
        if (frame.tail === null) fail('a variation before any node of its tree', i);
        const depth = frame.depth + (frame.childTrees > 0 ? 1 : 0);
        if (depth > limits.maxVariationDepth) throw variationDepthExceeded(limits, locateByte(bytes, decoder, i));
        frame.childTrees++;
        if (bytes[nextNonBlank(i + 1)] !== SEMICOLON) fail('a game tree must start with a node (";")', i);
        stack.push({ parent: frame.tail, tail: null, childTrees: 0, depth, open: i });
        i++;
      } else if (b === CLOSE) {
        stack.pop();
        i++;
        if (stack.length === 0) break;
      } else if (isLetter(b)) {
        if (frame.childTrees > 0) fail('a property after a variation: it belongs to no node', i);
        const property = readProperty(bytes, i, charset, decoder, build, fail);
        i = propertyEnd;
        if (build && node !== null) {
          (node as Building).properties = withItem(node.properties, property!);
          node.end = i;
        }
      } else {
        fail(`unexpected ${describeByte(b)}: expected a node (";"), a property, "(" or ")"`, i);
      }
    }
    ranges.push({ start: open, end: i });
    if (build) trees.push({ root: root!, start: open, end: i, nodes });
  }
  if (ranges.length === 0) fail('no game tree: an SGF file holds one or more "(;…)"', 0);
  return { trees, ranges };
}

/** Stands in for nodes when only the trees' ranges are wanted. */
const PLACEHOLDER: SgfNode = { properties: [], children: [], start: -1, end: -1 };

/** A node while its tree is read (its lists, begun as NO_ITEMS, are replaced as they grow: see withItem). */
type Building = { -readonly [K in keyof SgfNode]: SgfNode[K] };

function describeByte(b: number): string {
  return b >= 0x21 && b < 0x7f ? `"${String.fromCharCode(b)}"` : `byte 0x${b.toString(16).padStart(2, '0')}`;
}

/**
 * Where the last property {@link readProperty} read ends (just past its last `]`). Reading is
 * synchronous, one property at a time: this spares an answer object per property.
 */
let propertyEnd = 0;

/** Reads `Identifier [value][value]…` starting at a letter (null unless `build`); sets {@link propertyEnd}. */
function readProperty(
  bytes: Uint8Array,
  start: number,
  charset: SgfCharset,
  decoder: ValueDecoder,
  build: boolean,
  fail: (message: string, offset: number) => never,
): SgfProperty | null {
  const n = bytes.length;
  let i = start;
  let id = '';
  let lowerCase = false;
  while (i < n && isLetter(bytes[i])) {
    if (isUpper(bytes[i])) id += String.fromCharCode(bytes[i]);
    else lowerCase = true;
    i++;
  }
  // Identifiers are a letter or two, almost always upper-case: then they are written as read.
  const written = lowerCase ? asciiText(bytes, start, i) : id;
  if (id === '') fail(`property "${written}" has no upper-case letter in its identifier`, start);
  let values: SgfValue[] = NO_ITEMS;
  for (;;) {
    let j = i;
    while (j < n && isSpace(bytes[j])) j++;
    if (bytes[j] !== LEFT_BRACKET) break;
    const valueStart = j + 1;
    let ascii = true;
    let escaped = false;
    j = valueStart;
    for (;;) {
      if (j >= n) fail(`the value of ${written} opened here is not closed with "]"`, valueStart - 1);
      const b = bytes[j];
      if (b === RIGHT_BRACKET) break;
      if (b >= 0x80) ascii = false;
      if (b === BACKSLASH) {
        escaped = true;
        j++;
        if (j >= n) continue;
        if (bytes[j] >= 0x80) ascii = false;
      }
      // Only a byte from 0x80 up can lead a double-byte character.
      j += bytes[j] < 0x80 ? 1 : characterWidth(charset, bytes, j);
    }
    if (build) values = withItem(values, valueOf(decoder.decode(bytes, valueStart, j, ascii), escaped, valueStart, j));
    i = j + 1;
  }
  if (i === start + written.length) fail(`property ${written} has no value ("[…]")`, i);
  propertyEnd = i;
  return build ? { id, written, values, start } : null;
}

/** Resolves escapes and soft line breaks, and finds the first unescaped colon. */
function valueOf(decoded: string, escaped: boolean, start: number, end: number): SgfValue {
  if (!escaped) return { text: decoded, colon: decoded.indexOf(':'), start, end };
  let text = '';
  let colon = -1;
  for (let k = 0; k < decoded.length; k++) {
    const c = decoded[k];
    if (c === ':' && colon < 0) colon = text.length;
    if (c !== '\\') {
      text += c;
      continue;
    }
    const next = decoded[k + 1];
    if (next === '\n' || next === '\r') {
      // A soft line break: `\` + a newline (LF, CR, CRLF or LFCR) is removed.
      const pair = decoded[k + 2];
      k += (next === '\n' && pair === '\r') || (next === '\r' && pair === '\n') ? 2 : 1;
    } else if (next !== undefined) {
      text += next;
      k++;
    }
  }
  return { text, colon, start, end };
}

/**
 * The root node of the file's first game tree, read without parsing the file (for detection, and
 * for `CA` before the charset is known): each property's first value, escapes resolved, bytes read
 * as Latin-1. The first game tree starts at the first `(` whose next non-blank character is `;` (text
 * before it is skipped, as the parser does). Null when there is none, or its root node is malformed
 * (a property without a value, a value not closed, anything but a property inside the node).
 * With `stopAt`, the reading stops at that property (so that values after it, perhaps in a
 * double-byte charset, are not looked at).
 */
export function peekRoot(bytes: Uint8Array, stopAt?: string): Map<string, string> | null {
  const n = bytes.length;
  let i = 0;
  for (;;) {
    const open = bytes.indexOf(OPEN, i);
    if (open < 0) return null;
    i = open + 1;
    while (i < n && isSpace(bytes[i])) i++;
    if (bytes[i] === SEMICOLON) break;
  }
  i++;
  const found = new Map<string, string>();
  for (;;) {
    while (i < n && isSpace(bytes[i])) i++;
    if (i >= n) return null;
    if (bytes[i] === SEMICOLON || bytes[i] === OPEN || bytes[i] === CLOSE) return found;
    if (!isLetter(bytes[i])) return null;
    let name = '';
    while (i < n && isLetter(bytes[i])) {
      if (isUpper(bytes[i])) name += String.fromCharCode(bytes[i]);
      i++;
    }
    let first: string | null = null;
    for (;;) {
      while (i < n && isSpace(bytes[i])) i++;
      if (bytes[i] !== LEFT_BRACKET) break;
      let value = '';
      for (i++; i < n && bytes[i] !== RIGHT_BRACKET; i++) {
        if (bytes[i] === BACKSLASH) i++;
        if (i < n) value += String.fromCharCode(bytes[i]);
      }
      if (i >= n) return null;
      i++;
      first ??= value;
    }
    if (first === null || name === '') return null;
    if (!found.has(name)) found.set(name, first);
    if (name === stopAt) return found;
  }
}

/** The first value of property `id` in the first game's root node (see {@link peekRoot}), or null. */
export function peekRootProperty(bytes: Uint8Array, id: string): string | null {
  return peekRoot(bytes, id)?.get(id) ?? null;
}
