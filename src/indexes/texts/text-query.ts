import { Transform } from 'class-transformer';
import { ProblemException } from '../../common/problem-codes.js';

/**
 * Queries of the texts index (`GET /games?text=`), written in web-search syntax as PostgreSQL's
 * `websearch_to_tsquery` reads it: words (all of them), `"a phrase"`, `-word` (none of), `or`.
 */

/**
 * The one text search configuration of the index: PostgreSQL's `russian` stems words in Cyrillic as
 * Russian and words in Latin letters as English (dropping each language's stop words), and keeps
 * words of other scripts as they are written.
 */
export const TEXT_SEARCH_CONFIG = 'russian';

/** The longest query taken, in characters. */
export const MAX_TEXT_QUERY_LENGTH = 500;
/** The most words a query may hold (each word of a phrase counts; `or` does not). */
export const MAX_TEXT_QUERY_TERMS = 32;

/** One part of a query: a word or a quoted phrase, wanted or excluded (`-`). */
interface QueryPart {
  readonly words: readonly string[];
  readonly phrase: boolean;
  readonly excluded: boolean;
}

function partsOf(query: string): QueryPart[] {
  return readQuery(query).parts;
}

/** A query's parts, and whether `or` joins any two of them. */
function readQuery(query: string): { parts: QueryPart[]; or: boolean } {
  const parts: QueryPart[] = [];
  let or = false;
  for (const match of query.matchAll(/(-?)"([^"]*)"?|(-?)([^\s"]+)/g)) {
    const phrase = match[2] !== undefined;
    const text = phrase ? match[2] : match[4];
    const words = text.split(/\s+/).filter((word) => word !== '' && word !== '-');
    if (words.length === 0) continue;
    // `or` between two parts is the operator, not a word.
    if (!phrase && words.length === 1 && words[0].toLowerCase() === 'or' && match[3] === '') {
      or = true;
      continue;
    }
    parts.push({ words, phrase, excluded: (phrase ? match[1] : match[3]) === '-' });
  }
  return { parts, or };
}

/** What is wrong with a query (too long, too many words, no word), or null when it can be searched. */
export function textQueryProblem(query: string): string | null {
  if (query.length > MAX_TEXT_QUERY_LENGTH) return `text is ${query.length} characters long: at most ${MAX_TEXT_QUERY_LENGTH}`;
  const parts = partsOf(query);
  const terms = parts.reduce((sum, part) => sum + part.words.length, 0);
  if (terms > MAX_TEXT_QUERY_TERMS) return `text holds ${terms} words: at most ${MAX_TEXT_QUERY_TERMS}`;
  if (!parts.some((part) => !part.excluded)) return 'text names no word to find (only excluded words, or none)';
  return null;
}

/**
 * The query's wanted parts as one query finding any of them: what a game's single texts are shown
 * by, when the whole query is met by the game's texts together.
 */
export function anyOfQuery(query: string): string {
  return partsOf(query)
    .filter((part) => !part.excluded)
    .map((part) => (part.phrase ? `"${part.words.join(' ')}"` : part.words[0]))
    .join(' or ');
}

/**
 * The condition (on `games g`) that the game's texts together meet the query in SQL parameter
 * `param`. The planner walks `game_words` in the page's order, testing each game's words: quick when
 * many games match, slow when few do (each game tested is its words read and decompressed). A
 * search asks {@link TEXT_PROBE} first, and lists a query's few games by their ids instead.
 */
export function textMatches(param: string): string {
  return `g.id IN (SELECT w.game_id FROM game_words w WHERE w.words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', ${param}))`;
}

/**
 * The query a search finds its first games by in the GIN index ({@link TEXT_PROBE}): the query
 * itself, or, when it holds phrases, the same with each wanted phrase's words wanted one by one and
 * each excluded phrase left out. That finds every game the query does and maybe more, without reading
 * a game's words to check where its words stand; the page then checks the query itself
 * ({@link textMatchesEach}).
 */
export function probeQuery(query: string): string {
  if (!query.includes('"')) return query;
  return query
    .replace(/(^|\s)-"[^"]*"?/g, ' ')
    .replace(/"([^"]*)"?/g, ' $1 ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The condition (on `games g`) that the game's texts meet the query, tested game by game (`OFFSET 0`
 * keeps it a test of each row): for a page among the few games a relaxed {@link probeQuery} found.
 */
export function textMatchesEach(param: string): string {
  return `EXISTS (SELECT 1 FROM game_words w WHERE w.game_id = g.id AND w.words @@ websearch_to_tsquery('${TEXT_SEARCH_CONFIG}', ${param}) OFFSET 0)`;
}

/**
 * Up to how many games a text query's games are found in the GIN index first, in any order, before
 * a page is listed: when no more match, the page is found among them by id. Past it the page is
 * found by walking the games in its order and testing each (a few µs a game): for a query of just
 * more games than this, about 21 / this of the archive is walked, 2,100 games of 100,000 at 1,000,
 * while the probe costs a heap fetch (1–6 µs) a game it finds (bench/texts.ts measured the two ways:
 * at 200, two words found in 450 games walked 10,000 games).
 */
export const TEXT_PROBE = 1_000;

/**
 * The same for a query holding a phrase none of whose words stand next to each other (in `"ko in
 * the corner"`, `in` and `the` are stop words: `corner` stands three places after `ko`), whose games
 * the GIN index finds only as games holding the phrase's words: each must then be read to see whether
 * the words stand together. Walking the games in the page's order reads every game walked; when the
 * phrase is rare among them (36 games of 100,000 hold "gote защита", 2,933 both words) that is tens
 * of thousands of games. Up to this many games holding the words, only those are read
 * (bench/texts.ts, the phrase). A phrase with words next to each other is found by its pairs
 * ({@link textProbe}).
 */
export const TEXT_PHRASE_PROBE = 5_000;

/**
 * A query the planner expects in more than this many times the probe's games is not probed: the
 * probe would fetch its games from the heap for nothing (a fetch a game, 20 ms for 1,000 games on
 * the embedded database). Its estimates of single words come from `game_words`' statistics of its
 * most common words, good within a factor of two for words in thousands of games. A phrase's probe
 * takes five times more games, each checked after: it is skipped past its own size.
 */
export const TEXT_PROBE_SKIP = 4;

/** Up to how many games a probe lists the page among, and past how many the planner expects it is not asked. */
export interface TextProbe {
  readonly limit: number;
  readonly skipAbove: number;
}

/**
 * What a search asks the GIN indexes first: a query without phrases, its words; one with phrases,
 * the pairs of words next to each other in its wanted phrases (every game holding a phrase holds its
 * pairs, and few more do), or, when no phrase has two words next to each other or the query has an
 * `or`, its words with the phrases' words wanted one by one ({@link probeQuery}).
 */
export function textProbe(query: string): { readonly words: TextProbe & { readonly query: string }; readonly pairs: (TextProbe & { readonly phrases: readonly string[] }) | null } {
  const probe = probeQuery(query);
  if (probe === query) return { words: { query: probe, limit: TEXT_PROBE, skipAbove: TEXT_PROBE * TEXT_PROBE_SKIP }, pairs: null };
  const { parts, or } = readQuery(query);
  // With `or`, a game may meet the query without a phrase: no pair is wanted of every game.
  const phrases = or ? [] : parts.filter((part) => part.phrase && !part.excluded && part.words.length > 1).map((part) => part.words.join(' '));
  return {
    words: { query: probe, limit: TEXT_PHRASE_PROBE, skipAbove: TEXT_PHRASE_PROBE },
    pairs: phrases.length === 0 ? null : { phrases, limit: TEXT_PROBE, skipAbove: TEXT_PROBE * TEXT_PROBE_SKIP },
  };
}

/**
 * A word the texts of a game are joined with, four times between two texts, and deleted from the
 * game's words once they are made: it leaves its positions empty, so that a phrase never runs from
 * the end of one text into the start of the next.
 */
export const TEXT_SEPARATOR = 'tabulatextseparator';

/** A game's texts as one text for its words: {@link TEXT_SEPARATOR} four times between two texts. */
export function joinedTexts(texts: readonly string[]): string {
  return texts.join(` ${TEXT_SEPARATOR} ${TEXT_SEPARATOR} ${TEXT_SEPARATOR} ${TEXT_SEPARATOR} `);
}

/** The reads a text search's probe makes (the games' search repository). */
export interface TextProbeReads {
  /** How many games the planner expects the query to find. */
  textEstimate(text: string): Promise<number>;
  /** Up to `limit` games the query finds in the GIN index, in no order. */
  textGames(text: string, limit: number): Promise<number[]>;
  /** The pairs of words next to each other in the phrases' texts (`word_pairs`: none when no two stand together). */
  phrasePairs(phrases: readonly string[]): Promise<number[]>;
  /** How many games the planner expects to hold every pair. */
  pairsEstimate(pairs: readonly number[]): Promise<number>;
  /** Up to `limit` games holding every pair, in no order. */
  pairGames(pairs: readonly number[], limit: number): Promise<number[]>;
}

/**
 * The games of a text search when few enough match to list a page among them ({@link textProbe}):
 * the planner's estimate first, then the GIN index asked for the probe's games; undefined when the
 * page is to be found by walking the games.
 */
export async function fewTextGames(reads: TextProbeReads, text: string): Promise<number[] | undefined> {
  const probe = textProbe(text);
  const pairs = probe.pairs === null ? [] : await reads.phrasePairs(probe.pairs.phrases);
  if (pairs.length > 0) return listed(probe.pairs!, () => reads.pairsEstimate(pairs), (limit) => reads.pairGames(pairs, limit));
  const { query } = probe.words;
  return listed(probe.words, () => reads.textEstimate(query), (limit) => reads.textGames(query, limit));
}

/** A probe's games, unless the planner expects many more than it takes (it would fetch them for nothing) or more are found. */
async function listed(probe: TextProbe, estimate: () => Promise<number>, games: (limit: number) => Promise<number[]>): Promise<number[] | undefined> {
  if ((await estimate()) > probe.skipAbove) return undefined;
  const few = await games(probe.limit + 1);
  return few.length <= probe.limit ? few : undefined;
}

/** A query parameter read as a text query: checked (400 `text.invalid` saying what is wrong), kept as sent. */
export const QueryTextSearch = (): PropertyDecorator =>
  Transform(({ value }) => {
    if (typeof value !== 'string') return value;
    const problem = textQueryProblem(value);
    if (problem !== null) throw new ProblemException(400, 'text.invalid', problem);
    return value;
  });
