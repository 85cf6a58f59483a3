import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { post, startArchive } from '../support/archive-harness.js';
import type { TestArchive } from '../support/archive-harness.js';
import { seededRandom } from '../support/seeded-random.js';
import { WordPairs1767100000000 } from '../../migrations/1767100000000-WordPairs.js';

/**
 * The texts index (src/indexes/texts) through `GET /games?text=`: games whose comments the test
 * writes in English and Russian, searched, and the answers compared with a brute force over what the
 * test wrote. The brute force knows no stemming: each word the comments use belongs to a concept
 * whose forms are listed here by hand (a dictionary's knowledge: "ladders" is a form of "ladder",
 * "лестницу" of "лестница"), and a query written in any form finds the games holding any form.
 */
const CONCEPTS: readonly (readonly string[])[] = [
  ['ladder', 'ladders'],
  ['work', 'works', 'working', 'worked'],
  ['resign', 'resigns', 'resigned'],
  ['tesuji'],
  ['handicap', 'handicaps'],
  ['seki'],
  ['лестница', 'лестницы', 'лестницу'],
  ['ошибка', 'ошибки', 'ошибку'],
  ['жертва', 'жертвы', 'жертву'],
];
/** Words that are in no concept: English and Russian stop words, found by no query. */
const FILLER = ['the', 'is', 'here', 'и', 'в', 'was'];

const conceptOf = (word: string): number => CONCEPTS.findIndex((forms) => forms.includes(word.toLowerCase()));

interface WrittenGame {
  readonly id: number;
  /** The concepts of every comment of the game, together. */
  readonly concepts: ReadonlySet<number>;
  /** Each comment: its ply and its words. */
  readonly comments: readonly { ply: number; text: string }[];
}

/** An SGF Go game of `moves` plies on distinct points, with `comments` on the moves of their plies (ply 0: the root). */
function commentedGame(moves: number, comments: readonly { ply: number; text: string }[], root = ''): string {
  const at = (ply: number) =>
    comments
      .filter((comment) => comment.ply === ply)
      .map((comment) => `C[${comment.text}]`)
      .join('');
  const letters = 'abcdefghijklmnopqrs';
  const nodes = Array.from({ length: moves }, (_, i) => `;${i % 2 === 0 ? 'B' : 'W'}[${letters[(i * 7) % 19]}${letters[(i * 3 + Math.floor(i / 19)) % 19]}]${at(i + 1)}`);
  return `(;GM[1]FF[4]CA[UTF-8]SZ[19]${root}${at(0)}${nodes.join('')})`;
}

describe('the texts index: GET /games?text=', () => {
  let archive: TestArchive;
  let db: DataSource;
  const games: WrittenGame[] = [];
  const sgf = { 'Content-Type': 'application/x-go-sgf' };

  const upload = async (text: string): Promise<number> => {
    const response = await post(archive, '/games', text, sgf);
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: number }).id;
  };
  const search = async (query: string): Promise<Response> => fetch(`${archive.baseUrl}/games?${query}`);
  const found = async (text: string, extra = ''): Promise<number[]> => {
    const response = await search(`limit=100&text=${encodeURIComponent(text)}${extra}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { items: { id: number }[]; next: string | null };
    expect(page.next).toBeNull();
    return page.items.map((game) => game.id).sort((a, b) => a - b);
  };

  beforeAll(async () => {
    archive = await startArchive();
    db = archive.app.get<DataSource>(getDataSourceToken());
    const random = seededRandom(47);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    for (let g = 0; g < 40; g++) {
      const moves = 4 + Math.floor(random() * 12);
      // A node holds one comment: the plies commented are drawn apart.
      const plies = [...new Set(Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * (moves + 1))))];
      const comments = plies.map((ply) => {
        const words = Array.from({ length: 1 + Math.floor(random() * 4) }, () => (random() < 0.3 ? pick(FILLER) : pick(pick(CONCEPTS))));
        return { ply, text: words.join(' ') };
      });
      const id = await upload(commentedGame(moves, comments, `PB[Player ${g}]`));
      const concepts = new Set(comments.flatMap((comment) => comment.text.split(' ').map(conceptOf)).filter((concept) => concept >= 0));
      games.push({ id, concepts, comments });
    }
  }, 120_000);
  afterAll(async () => {
    await archive?.close();
  });

  /** The brute force: the games whose comments together hold every wanted concept and no excluded one. */
  const expected = (wanted: readonly number[], excluded: readonly number[] = []): number[] =>
    games
      .filter((game) => wanted.every((concept) => game.concepts.has(concept)) && !excluded.some((concept) => game.concepts.has(concept)))
      .map((game) => game.id)
      .sort((a, b) => a - b);

  it('finds a word in any of its forms, English and Russian', async () => {
    for (const [concept, forms] of CONCEPTS.entries()) {
      for (const form of forms) expect({ form, ids: await found(form) }).toEqual({ form, ids: expected([concept]) });
    }
    // The brute force is not empty everywhere: the comments drew most concepts.
    expect(CONCEPTS.filter((_, concept) => expected([concept]).length > 0).length).toBeGreaterThanOrEqual(7);
  });

  it('takes all of, none of and or, each word found in any comment of the game', async () => {
    const random = seededRandom(4700);
    let nonEmpty = 0;
    for (let round = 0; round < 30; round++) {
      const a = Math.floor(random() * CONCEPTS.length);
      const b = (a + 1 + Math.floor(random() * (CONCEPTS.length - 1))) % CONCEPTS.length;
      const form = (concept: number) => CONCEPTS[concept][Math.floor(random() * CONCEPTS[concept].length)];
      const [x, y] = [form(a), form(b)];
      const both = expected([a, b]);
      nonEmpty += both.length > 0 ? 1 : 0;
      expect({ query: `${x} ${y}`, ids: await found(`${x} ${y}`) }).toEqual({ query: `${x} ${y}`, ids: both });
      expect({ query: `${x} -${y}`, ids: await found(`${x} -${y}`) }).toEqual({ query: `${x} -${y}`, ids: expected([a], [b]) });
      const either = [...new Set([...expected([a]), ...expected([b])])].sort((p, q) => p - q);
      expect({ query: `${x} or ${y}`, ids: await found(`${x} or ${y}`) }).toEqual({ query: `${x} or ${y}`, ids: either });
    }
    expect(nonEmpty).toBeGreaterThan(5);
  });

  it('lists the hits of each game: its texts holding a wanted word, at their plies, in ply order', async () => {
    const concept = CONCEPTS.findIndex((_, c) => expected([c]).length >= 3);
    const response = await search(`limit=100&text=${encodeURIComponent(CONCEPTS[concept][0])}`);
    const page = (await response.json()) as { items: { id: number; hits: { ply: number; snippet: string }[] }[] };
    for (const item of page.items) {
      const game = games.find((written) => written.id === item.id)!;
      const holding = game.comments
        .map((comment, n) => ({ ...comment, n }))
        .filter((comment) => comment.text.split(' ').some((word) => conceptOf(word) === concept))
        .sort((x, y) => x.ply - y.ply || x.n - y.n)
        .slice(0, 5);
      expect(item.hits.map((hit) => hit.ply)).toEqual(holding.map((comment) => comment.ply));
      for (const [i, hit] of item.hits.entries()) {
        const bold = [...hit.snippet.matchAll(/<b>([^<]*)<\/b>/g)].map((match) => match[1]);
        expect(bold.length).toBeGreaterThan(0);
        for (const word of bold) expect(conceptOf(word)).toBe(concept);
        expect(hit.snippet.replace(/<\/?b>/g, '')).toBe(holding[i].text);
      }
    }
  });

  it("finds the game's own texts at ply 0: its players, event, place and comment", async () => {
    const id = await upload(commentedGame(3, [{ ply: 2, text: 'a quiet move' }], 'PB[Hikaru Nakamura]PW[Ли Седоль]EV[Kisei Final]PC[Osaka Hall]GC[broadcast commentary]'));
    for (const word of ['Nakamura', 'Седоль', 'Kisei', 'Osaka', 'commentary']) {
      const response = await search(`text=${encodeURIComponent(word)}`);
      const item = ((await response.json()) as { items: { id: number; hits: { ply: number; snippet: string }[] }[] }).items.find((game) => game.id === id);
      expect({ word, hits: item?.hits.map((hit) => [hit.ply, hit.snippet.includes(`<b>${word}</b>`)]) }).toEqual({ word, hits: [[0, true]] });
    }
    expect(await found('quiet')).toEqual([id]);
    await fetch(`${archive.baseUrl}/games/${id}`, { method: 'DELETE' });
    expect(await found('Nakamura')).toEqual([]);
    expect(await db.query(`SELECT count(*)::int AS n FROM game_texts WHERE game_id = $1`, [id])).toEqual([{ n: 0 }]);
  });

  it('takes a phrase as words in that order, next to each other', async () => {
    const next = await upload(commentedGame(2, [{ ply: 1, text: 'he played tesuji, seki followed' }]));
    const apart = await upload(commentedGame(2, [{ ply: 1, text: 'seki here, then a tesuji' }]));
    const phrase = await found('"tesuji seki"');
    expect(phrase).toContain(next);
    expect(phrase).not.toContain(apart);
    // Two comments, one ending where the next begins: the phrase is in neither.
    const across = await upload(commentedGame(2, [{ ply: 1, text: 'a clever tesuji' }, { ply: 2, text: 'seki is the result' }]));
    expect(await found('"tesuji seki"')).not.toContain(across);
    const words = await found('tesuji seki');
    expect(words).toEqual(expect.arrayContaining([next, apart, across]));
    for (const id of [next, apart, across]) await fetch(`${archive.baseUrl}/games/${id}`, { method: 'DELETE' });
  });

  it('finds a phrase where its words stand next to each other in one comment, a stop word taking a place', async () => {
    // The brute force: a comment whose words at i and i + gap are of the phrase's two concepts (a stop word counts as a place).
    const phraseIn = (a: number, b: number, gap: number): number[] =>
      games
        .filter((game) =>
          game.comments.some(({ text }) => {
            const words = text.split(' ');
            return words.some((word, i) => i + gap < words.length && conceptOf(word) === a && conceptOf(words[i + gap]) === b);
          }),
        )
        .map((game) => game.id)
        .sort((x, y) => x - y);
    const random = seededRandom(4701);
    const form = (concept: number) => CONCEPTS[concept][Math.floor(random() * CONCEPTS[concept].length)];
    let nonEmpty = 0;
    for (let round = 0; round < 40; round++) {
      const a = Math.floor(random() * CONCEPTS.length);
      const b = Math.floor(random() * CONCEPTS.length);
      const [x, y] = [form(a), form(b)];
      const next = phraseIn(a, b, 1);
      nonEmpty += next.length > 0 ? 1 : 0;
      expect({ query: `"${x} ${y}"`, ids: await found(`"${x} ${y}"`) }).toEqual({ query: `"${x} ${y}"`, ids: next });
      // A stop word between: the phrase's second word two places on (no pair of words stands together).
      const apart = `"${x} ${random() < 0.5 ? 'the' : 'в'} ${y}"`;
      expect({ query: apart, ids: await found(apart) }).toEqual({ query: apart, ids: phraseIn(a, b, 2) });
    }
    expect(nonEmpty).toBeGreaterThan(5);
  });

  it('gives the games stored before the word pairs their pairs from their words (the WordPairs migration), as the writer makes them', async () => {
    const pairs = async () => db.query(`SELECT game_id::int AS id, pairs FROM game_word_pairs ORDER BY game_id`);
    const written = (await pairs()) as { id: number; pairs: string[] }[];
    expect(written.length).toBeGreaterThan(30);
    const runner = db.createQueryRunner();
    try {
      await new WordPairs1767100000000().down(runner);
      await new WordPairs1767100000000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await pairs()).toEqual(written);
    // A pair is two stems next to each other: "the ladders worked" holds one, that of "ladder works".
    const id = await upload(commentedGame(1, [{ ply: 1, text: 'the ladders worked' }]));
    const [{ pairs: held }] = await db.query(`SELECT pairs FROM game_word_pairs WHERE game_id = $1`, [id]);
    expect(held).toHaveLength(1);
    const [{ pairs: asked }] = await db.query(`SELECT word_pairs(to_tsvector('russian', 'ladder works')) AS pairs`);
    expect(held).toEqual(asked);
    expect(await found('"ladder works"')).toContain(id);
    await fetch(`${archive.baseUrl}/games/${id}`, { method: 'DELETE' });
  });

  it('shows a comment written in HTML as text', async () => {
    const id = await upload(commentedGame(1, [{ ply: 1, text: '<script>alert(1)</script> ladder & more' }]));
    const page = (await (await search('text=ladder&limit=100')).json()) as { items: { id: number; hits: { snippet: string }[] }[] };
    const snippet = page.items.find((game) => game.id === id)!.hits[0].snippet;
    expect(snippet).toBe('&lt;script&gt;alert(1)&lt;/script&gt; <b>ladder</b> &amp; more');
    await fetch(`${archive.baseUrl}/games/${id}`, { method: 'DELETE' });
  });

  it('combines with the other filters and follows its cursor', async () => {
    const concept = CONCEPTS.findIndex((_, c) => expected([c]).length >= 3);
    const all = expected([concept]);
    const player = games.find((game) => game.id === all[1])!;
    expect(await found(CONCEPTS[concept][0], `&player=${encodeURIComponent(`Player ${games.indexOf(player)}`)}`)).toEqual([player.id]);
    const seen: number[] = [];
    let query = `text=${encodeURIComponent(CONCEPTS[concept][0])}&limit=1`;
    for (;;) {
      const page = (await (await search(query)).json()) as { items: { id: number }[]; next: string | null };
      seen.push(...page.items.map((game) => game.id));
      if (page.next === null) break;
      query = `cursor=${page.next}`;
    }
    expect(seen.sort((a, b) => a - b)).toEqual(all);
  });

  it('keeps the texts of a game read again, once', async () => {
    const game = games.find((written) => written.comments.length > 0)!;
    const before = await db.query(`SELECT ply, body FROM game_texts WHERE game_id = $1 ORDER BY n`, [game.id]);
    expect((await post(archive, `/games/${game.id}/reindex`, '')).status).toBe(200);
    expect(await db.query(`SELECT ply, body FROM game_texts WHERE game_id = $1 ORDER BY n`, [game.id])).toEqual(before);
    expect(before.length).toBe(1 + game.comments.length);
  });

  it('refuses a query too long, of too many words, or with no word to find: 400 text.invalid', async () => {
    for (const text of ['x'.repeat(501), Array.from({ length: 33 }, (_, i) => `w${i}`).join(' '), '-handicap', '""', '   ']) {
      const response = await search(`text=${encodeURIComponent(text)}`);
      expect({ text: text.slice(0, 20), status: response.status }).toEqual({ text: text.slice(0, 20), status: 400 });
      expect(((await response.json()) as { code: string }).code).toBe('text.invalid');
    }
    // 32 words, a phrase's words counted each, `or` not counted: taken.
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' or ');
    expect((await search(`text=${encodeURIComponent(`${words} "a b"`)}`)).status).toBe(200);
  });
});

describe('the texts index off', () => {
  it('answers text= and rank bounds with 409 search.not_indexed', async () => {
    const archive = await startArchive({ INDEXES: 'facts,players' });
    try {
      const response = await fetch(`${archive.baseUrl}/games?text=ladder`);
      expect(response.status).toBe(409);
      expect(((await response.json()) as { code: string; detail: string })).toMatchObject({ code: 'search.not_indexed', detail: expect.stringContaining('texts index') });
      const ranked = await fetch(`${archive.baseUrl}/games?rankMin=1d`);
      expect(ranked.status).toBe(409);
      expect(((await ranked.json()) as { detail: string }).detail).toContain('ranks index');
    } finally {
      await archive.close();
    }
  });
});
