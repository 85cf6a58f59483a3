/*
 * Lists that parsers fill one item at a time, most of them with one item: an array grown by `push`
 * from empty reserves room for 17, one made for its first item room for one.
 */

/** A list with no item yet, shared by all (frozen: {@link withItem} never pushes onto it). */
export const NO_ITEMS: never[] = Object.freeze([]) as never[];

/** `list` with `item` added: a new array of one for the first item, else `list` pushed onto. */
export function withItem<T>(list: readonly T[], item: T): T[] {
  if (list.length === 0) return [item];
  (list as T[]).push(item);
  return list as T[];
}
