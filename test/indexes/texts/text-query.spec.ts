import { TEXT_PHRASE_PROBE, TEXT_PROBE, anyOfQuery, probeQuery, textProbe, textQueryProblem } from '../../../src/indexes/texts/text-query.js';

/** The text query's parts, as the search reads them beside PostgreSQL's websearch_to_tsquery: each operator by hand. */
describe('text queries', () => {
  it('are refused past 500 characters, 32 words, or with no word to find', () => {
    expect(textQueryProblem('x'.repeat(500))).toBeNull();
    expect(textQueryProblem('x'.repeat(501))).toMatch(/501 characters long: at most 500/);
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
    expect(textQueryProblem(words(32).join(' '))).toBeNull();
    expect(textQueryProblem(words(33).join(' '))).toMatch(/33 words: at most 32/);
    // A phrase's words count each; `or` between parts does not; a leading - still counts its word.
    expect(textQueryProblem(`"${words(16).join(' ')}" ${words(16).join(' or ')}`)).toBeNull();
    expect(textQueryProblem(`"${words(17).join(' ')}" ${words(16).join(' or ')}`)).toMatch(/33 words/);
    expect(textQueryProblem(`${words(31).join(' ')} -x`)).toBeNull();
    expect(textQueryProblem(`${words(32).join(' ')} -x`)).toMatch(/33 words/);
    for (const nothing of ['', '   ', '""', '-handicap', '-"sente resign"', 'or']) expect({ nothing, problem: textQueryProblem(nothing) }).toEqual({ nothing, problem: expect.stringMatching(/no word to find/) });
    // `or` as a word of a phrase, or a word alone that is "or"-like but not the operator, is a word.
    expect(textQueryProblem('"ko or seki"')).toBeNull();
    expect(textQueryProblem('orthodox')).toBeNull();
  });

  it('show a game by any wanted word or phrase, never an excluded one', () => {
    expect(anyOfQuery('ladder tesuji')).toBe('ladder or tesuji');
    expect(anyOfQuery('"sente resign" ko')).toBe('"sente resign" or ko');
    expect(anyOfQuery('joseki -handicap -"bad shape"')).toBe('joseki');
    expect(anyOfQuery('ko or seki')).toBe('ko or seki');
    expect(anyOfQuery('лестница -ошибка')).toBe('лестница');
  });

  it('find their first games by a query that finds every game they do: phrases as their words, excluded phrases left out', () => {
    expect(probeQuery('ladder -handicap')).toBe('ladder -handicap');
    expect(probeQuery('"sente resign" ko')).toBe('sente resign ko');
    expect(probeQuery('joseki -"bad shape"')).toBe('joseki');
    expect(probeQuery('"a b" or c')).toBe('a b or c');
    expect(probeQuery('x "unclosed phrase')).toBe('x unclosed phrase');
  });

  it('probe a phrase by its pairs, or as its words for more games (each checked after) and skip that probe past that many expected; words past a few times theirs', () => {
    const phrase = textProbe('"sente resign" ko');
    expect(phrase.words).toEqual({ query: 'sente resign ko', limit: TEXT_PHRASE_PROBE, skipAbove: TEXT_PHRASE_PROBE });
    expect(phrase.pairs).toMatchObject({ phrases: ['sente resign'], limit: TEXT_PROBE });
    // Excluded phrases, one-word phrases and phrases beside `or` want no pair of every game.
    expect(textProbe('ko -"sente resign"').pairs).toBeNull();
    expect(textProbe('"ko" "sente"').pairs).toBeNull();
    expect(textProbe('"sente resign" or ko').pairs).toBeNull();
    expect(textProbe('"sente resign" "ko fight" -"bad shape"').pairs?.phrases).toEqual(['sente resign', 'ko fight']);
    const words = textProbe('ladder -handicap');
    expect(words.pairs).toBeNull();
    expect(words.words).toMatchObject({ query: 'ladder -handicap', limit: TEXT_PROBE });
    expect(words.words.skipAbove).toBeGreaterThan(TEXT_PROBE);
    expect(TEXT_PHRASE_PROBE).toBeGreaterThan(TEXT_PROBE);
  });

});
