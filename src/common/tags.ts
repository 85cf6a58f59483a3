import { Transform } from 'class-transformer';
import { ProblemException } from './problem-codes.js';

/**
 * Tags: an owner's words about a game (`studied`, `joseki`, `урок`). A tag is 1 to 50 letters of any
 * script (with their combining marks), decimal digits, `-` and `_`, and does not start with `-` (a
 * filter reads a leading `-` as "none of"). Tags are kept as written, in Unicode NFC: two spellings
 * that NFC makes one are one tag; upper and lower case are different tags.
 */
export const MAX_TAG_LENGTH = 50;
/** The most tags a game has, and the most a filter or a bulk change names. */
export const MAX_TAGS = 50;

const TAG = /^[\p{L}\p{Nd}_][\p{L}\p{M}\p{Nd}_-]*$/u;
const TAG_CHARACTER = /[\p{L}\p{M}\p{Nd}_-]/u;

/** A character as a problem's detail shows it: itself when printable, and its code point. */
function described(character: string): string {
  const code = `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(character) ? `"${character}" (${code})` : code;
}

/** A tag as a problem's detail shows it: quoted, cut when long, control characters escaped. */
function shownTag(tag: string): string {
  const cut = Array.from(tag).length > 60 ? `${Array.from(tag).slice(0, 60).join('')}…` : tag;
  return JSON.stringify(cut);
}

/** What is wrong with a tag, or undefined when it is one; `tag` is already in NFC. */
export function tagFault(tag: unknown): string | undefined {
  if (typeof tag !== 'string') return `is ${tag === null ? 'null' : typeof tag}, not text`;
  if (tag === '') return 'is empty';
  const characters = Array.from(tag);
  if (characters.length > MAX_TAG_LENGTH) return `${shownTag(tag)} has ${characters.length} characters, more than ${MAX_TAG_LENGTH}`;
  if (TAG.test(tag)) return undefined;
  const other = characters.find((c) => !TAG_CHARACTER.test(c));
  if (other !== undefined) return `${shownTag(tag)} holds ${described(other)}: a tag is letters, digits, "-" and "_" only`;
  return `${shownTag(tag)} starts with ${described(characters[0])}: a tag starts with a letter, a digit or "_"`;
}

/**
 * A list of tags as sent (a game's, or a bulk change's): each in NFC, checked, repeats dropped, in
 * the order first given; 400 `tag.invalid` naming the first bad one, or when there are more than `MAX_TAGS`.
 */
export function checkedTags(tags: unknown, what: string): string[] {
  if (!Array.isArray(tags)) throw new ProblemException(400, 'tag.invalid', `${what} must be a JSON array of tags`);
  const kept = new Set<string>();
  tags.forEach((tag, i) => {
    const normal = typeof tag === 'string' ? tag.normalize('NFC') : tag;
    const fault = tagFault(normal);
    if (fault !== undefined) throw new ProblemException(400, 'tag.invalid', `${what}[${i}] ${fault}`);
    kept.add(normal as string);
  });
  if (kept.size > MAX_TAGS) throw new ProblemException(400, 'tag.invalid', `${what} holds ${kept.size} different tags; a game has at most ${MAX_TAGS}`);
  return [...kept];
}

/** A tags filter (`studied,-handicap`): the tags a game must all have, and those it must have none of. */
export interface TagFilter {
  readonly all: readonly string[];
  readonly none: readonly string[];
}

/**
 * Reads a tags filter: tags separated by commas, each with a leading `-` for "none of". 400
 * `tag.invalid` for a bad tag or more than `MAX_TAGS` of them.
 */
export function parseTagFilter(text: string): TagFilter {
  const items = text.normalize('NFC').split(',');
  if (items.length > MAX_TAGS) throw new ProblemException(400, 'tag.invalid', `tags names ${items.length} tags; a filter names at most ${MAX_TAGS}`);
  const all = new Set<string>();
  const none = new Set<string>();
  items.forEach((item, i) => {
    const negated = item.startsWith('-');
    const tag = negated ? item.slice(1) : item;
    const fault = tagFault(tag);
    if (fault !== undefined) throw new ProblemException(400, 'tag.invalid', `tags: item ${i + 1} ${fault}${item === '' ? ' (two commas in a row, or one at an end)' : ''}`);
    (negated ? none : all).add(tag);
  });
  return { all: [...all], none: [...none] };
}

/** The filter written back as one text, in a fixed form (NFC, repeats dropped): what a cursor carries. */
export function tagFilterText(filter: TagFilter): string {
  return [...filter.all, ...filter.none.map((tag) => `-${tag}`)].join(',');
}

/** A query parameter read as a tags filter: checked (400 `tag.invalid`) and written in its fixed form. */
export const QueryTagFilter = (): PropertyDecorator => Transform(({ value }) => (typeof value === 'string' ? tagFilterText(parseTagFilter(value)) : value));
