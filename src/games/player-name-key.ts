/**
 * The form of a player's name that search compares: Unicode-normalised (NFKC, so full-width and
 * composed letters match their plain forms) and lower-cased here rather than by the database,
 * whose `lower()` folds only ASCII under the `C` ctype — and the archive is full of Cyrillic names.
 */
export function playerNameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/** The shortest name part the trigram index serves; shorter parts match whole names (by B-tree). */
export const SHORTEST_PART = 3;
