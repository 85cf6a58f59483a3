import { playerNameKey } from '../../src/common/name-key.js';

describe('player name keys (what player search compares)', () => {
  it.each([
    ['Павел Слепнев', 'павел слепнев'],
    ['ПАВЕЛ', 'павел'],
    ['Anna', 'anna'],
    ['ＡＮＮＡ', 'anna'], // full-width letters, as some East Asian clients write them
    ['Rene\u0301', 'ren\u00e9'], // a decomposed accent becomes the composed letter
    ['Łukasz', 'łukasz'],
  ])('%s → %s', (name, key) => {
    expect(playerNameKey(name)).toBe(key);
  });

  it('folds a search term and the name it should find to the same key', () => {
    expect(playerNameKey('René')).toBe(playerNameKey('RENE\u0301'));
    expect(playerNameKey('слепнев')).toBe(playerNameKey('СЛЕПНЕВ'));
  });
});
