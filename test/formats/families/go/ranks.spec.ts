import { HIGHEST_RANK, LOWEST_RANK, goRankValue, rankText, ratingValue } from '../../../../src/formats/families/go/ranks.js';

/*
 * Each expected value is worked out by hand from the scale: 30k = -29 … 1k = 0, 1d = 1 … 9d = 9,
 * 1p = 10 … 9p = 18.
 */
describe('goRankValue', () => {
  it.each([
    // Latin letters, either case
    ['5d', 5],
    ['5D', 5],
    ['1d', 1],
    ['9d', 9],
    ['3k', -2],
    ['3K', -2],
    ['1k', 0],
    ['30k', -29],
    ['10k', -9],
    ['1p', 10],
    ['9P', 18],
    ['4p', 13],
    // words
    ['5 dan', 5],
    ['7 dan', 7],
    ['7 Dan', 7],
    ['5-dan', 5],
    ['3 kyu', -2],
    ['3 KYU', -2],
    ['2 kyū', -1],
    ['9 pro', 18],
    ['2 Pro', 11],
    ['9 dan pro', 18],
    ['1 dan p', 10],
    // CJK
    ['2段', 2],
    ['9段', 9],
    ['初段', 1],
    ['4단', 4],
    ['15級', -14],
    ['15级', -14],
    ['10급', -9],
    ['9段プロ', 18],
    ['プロ9段', 18],
    ['프로 3단', 12],
    ['9プロ', 18],
    // full-width digits and letters
    ['５段', 5],
    ['３ｋ', -2],
    // uncertainty marks and spaces around
    ['5d*', 5],
    ['5d?', 5],
    ['12k??', -11],
    [' 5d ', 5],
    ['5d *', 5],
  ])('reads %j as %d', (written, value) => {
    expect(goRankValue(written)).toBe(value);
  });

  it.each([
    '',
    '?',
    '*',
    'strong',
    '5',
    '2100',
    '1850.5',
    '0k',
    '0d',
    '31k',
    '10d',
    '10p',
    '05d',
    '5x',
    '3kp',
    '5dp',
    '5danpro',
    'd5',
    'k3',
    '5d+',
    '初級',
    '初d',
    'プロ3級',
    '5d 3k',
    'dan',
  ])('reads no rank in %j', (written) => {
    expect(goRankValue(written)).toBeNull();
  });
});

describe('rankText', () => {
  it.each([
    [-29, '30k'],
    [-2, '3k'],
    [0, '1k'],
    [1, '1d'],
    [5, '5d'],
    [9, '9d'],
    [10, '1p'],
    [18, '9p'],
  ])('writes %d as %s', (value, text) => {
    expect(rankText(value)).toBe(text);
  });

  it('reads back every value of the scale it writes', () => {
    const values = Array.from({ length: HIGHEST_RANK - LOWEST_RANK + 1 }, (_, i) => LOWEST_RANK + i);
    expect(values.length).toBe(48);
    for (const value of values) expect(goRankValue(rankText(value))).toBe(value);
  });

  it.each([-30, 19, 1.5, Number.NaN])('refuses %d, off the scale', (value) => {
    expect(() => rankText(value)).toThrow(RangeError);
  });
});

describe('ratingValue', () => {
  it.each([
    ['2100', 2100],
    ['1850.5', 1850.5],
    [' 1500 ', 1500],
    ['1500?', 1500],
    ['0', 0],
    ['-120', -120],
    ['999999.9999', 999999.9999],
    ['１８５０', 1850],
  ])('reads %j as %d', (written, value) => {
    expect(ratingValue(written)).toBe(value);
  });

  it.each(['', '5d', '3 kyu', '2,100', '1e3', '+2100', '1234567', '1.23456', '.5', '5.', 'abc', '21 00'])('reads no rating in %j', (written) => {
    expect(ratingValue(written)).toBeNull();
  });
});
