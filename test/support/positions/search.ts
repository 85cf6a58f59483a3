import { expect } from '@jest/globals';
import type { TransformName } from '../../../src/rules/symmetry.js';

/** A game as GET /positions/games lists it, as far as the position tests read it. */
export interface PositionItem {
  readonly id: number;
  readonly ply: number;
  readonly transform: TransformName;
}

/** Every game the archive lists for a position, `first` (a path with its query) then `next` to the end, `limit` a page. */
export async function allPositionPages(baseUrl: string, first: string, limit: number): Promise<{ items: PositionItem[]; total: number }> {
  const items: PositionItem[] = [];
  let url: string | null = first;
  let total = -1;
  while (url !== null) {
    const response: Response = await fetch(`${baseUrl}${url}`);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    const page = (await response.json()) as { items: PositionItem[]; next: string | null; total: number };
    items.push(...page.items);
    total = page.total;
    url = page.next === null ? null : `/positions/games?cursor=${page.next}&limit=${limit}`;
  }
  return { items, total };
}

/**
 * The brute force's answer: for each game (its positions written as text, ply by ply), the first ply
 * whose text is one of `wanted`; newest game (highest id) first.
 */
export function firstArrivals(texts: ReadonlyMap<number, readonly string[]>, wanted: ReadonlySet<string>): Map<number, number> {
  const found: [number, number][] = [];
  for (const [game, written] of texts) {
    const index = written.findIndex((t) => wanted.has(t));
    if (index >= 0) found.push([game, index]);
  }
  return new Map(found.sort((a, b) => b[0] - a[0]));
}

/** The archive's answer is the brute force's: the same games, each at its first ply, newest first, and the total. */
export function expectFirstArrivals(found: { readonly items: readonly PositionItem[]; readonly total: number }, want: ReadonlyMap<number, number>): void {
  expect(found.total).toBe(want.size);
  expect(new Map(found.items.map((item) => [item.id, item.ply]))).toEqual(want);
  expect(found.items.map((item) => item.id)).toEqual([...want.keys()].sort((a, b) => b - a));
}
