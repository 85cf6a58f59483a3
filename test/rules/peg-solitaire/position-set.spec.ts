import { PositionSet } from '../../../src/rules/peg-solitaire/position-set.js';

describe('PositionSet', () => {
  it('holds exactly the positions added, through many growths', () => {
    const set = new PositionSet(3);
    const position = (i: number) => Uint32Array.of(i * 2654435761, i, i % 7);
    for (let i = 1; i <= 50_000; i++) set.add(position(i));
    expect(set.size).toBe(50_000);
    let found = 0;
    for (let i = 1; i <= 60_000; i++) if (set.has(position(i))) found += i <= 50_000 ? 1 : 1_000_000;
    expect(found).toBe(50_000);
  });

  it('tells positions apart that differ in one bit of one word', () => {
    const set = new PositionSet(2);
    set.add(Uint32Array.of(1, 0x80000000));
    expect(set.has(Uint32Array.of(1, 0x80000000))).toBe(true);
    expect(set.has(Uint32Array.of(1, 0x40000000))).toBe(false);
    expect(set.has(Uint32Array.of(0, 0x80000000))).toBe(false);
  });

  it('counts a position added twice once, and never stores the empty position', () => {
    const set = new PositionSet(1);
    set.add(Uint32Array.of(5));
    set.add(Uint32Array.of(5));
    set.add(Uint32Array.of(0));
    expect(set.size).toBe(1);
    expect(set.has(Uint32Array.of(0))).toBe(false);
  });

  it('stops accepting at its limit and stays correct', () => {
    const set = new PositionSet(1, 10);
    for (let i = 1; i <= 20; i++) set.add(Uint32Array.of(i));
    expect(set.size).toBe(10);
    expect(set.has(Uint32Array.of(3))).toBe(true);
    expect(set.has(Uint32Array.of(15))).toBe(false);
  });
});
