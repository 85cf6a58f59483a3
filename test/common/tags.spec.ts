import { ProblemException } from '../../src/common/problem-codes.js';
import { checkedTags, parseTagFilter, tagFault, tagFilterText } from '../../src/common/tags.js';

/** The 400 a call answers, or a failure when it answers none. */
function refusal(call: () => unknown): ProblemException {
  try {
    call();
  } catch (error) {
    if (error instanceof ProblemException) return error;
    throw error;
  }
  throw new Error('no refusal');
}

describe('tags', () => {
  it('takes letters of any script with their marks, digits of any script, "-" and "_"', () => {
    // Devanagari with its vowel signs and virama (marks), Arabic-Indic digits, a CJK ideograph, a letter beyond the BMP.
    for (const tag of ['नमस्ते', '٣دان', '定石', '𝒜lpha', 'a-b_c', '_lead', '7x7', 'Ko']) expect(tagFault(tag)).toBeUndefined();
  });

  it('refuses other characters, a leading "-" or mark, the empty tag, and more than 50 characters', () => {
    expect(tagFault('a b')).toMatch(/U\+0020/);
    expect(tagFault('a.b')).toMatch(/"\." \(U\+002E\)/);
    expect(tagFault('😀')).toMatch(/U\+1F600/);
    expect(tagFault('-x')).toMatch(/starts with "-"/);
    // A combining acute accent alone at the start belongs to no letter.
    expect(tagFault('\u0301a')).toMatch(/starts with .*U\+0301/);
    expect(tagFault('')).toBe('is empty');
    expect(tagFault(7)).toBe('is number, not text');
    // Characters, not UTF-16 units: fifty letters beyond the BMP are 100 units and one tag.
    expect(tagFault('𝒜'.repeat(50))).toBeUndefined();
    expect(tagFault('𝒜'.repeat(51))).toMatch(/51 characters, more than 50/);
  });

  it('keeps a list in NFC, repeats dropped in the order first given, and refuses past 50', () => {
    expect(checkedTags(['Étude', 'E\u0301tude', 'étude', 'Étude'], 'tags')).toEqual(['\u00c9tude', '\u00e9tude']);
    const many = Array.from({ length: 51 }, (_, i) => `t${i}`);
    expect(refusal(() => checkedTags(many, 'tags'))).toMatchObject({ code: 'tag.invalid' });
    // Repeats do not count towards the 50.
    expect(checkedTags([...many.slice(0, 50), 't0', 't1'], 'tags')).toHaveLength(50);
    expect(refusal(() => checkedTags('studied', 'tags')).message).toMatch(/JSON array/);
  });

  it('reads a filter as all of and none of, and writes it back in one form', () => {
    expect(parseTagFilter('studied,-handicap,studied,E\u0301tude')).toEqual({ all: ['studied', '\u00c9tude'], none: ['handicap'] });
    expect(tagFilterText(parseTagFilter('-b,a,-b'))).toBe('a,-b');
    expect(refusal(() => parseTagFilter('a,,b')).message).toMatch(/item 2 is empty/);
    expect(refusal(() => parseTagFilter('--a')).message).toMatch(/starts with "-"/);
    expect(refusal(() => parseTagFilter(Array.from({ length: 51 }, (_, i) => `t${i}`).join(','))).message).toMatch(/51 tags/);
  });
});
