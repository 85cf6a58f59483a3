/**
 * The form of a player's name that search compares: Unicode-normalised (NFKC, so full-width and
 * composed letters match their plain forms) and lower-cased here rather than by the database,
 * whose `lower()` folds only ASCII under the `C` ctype — and the archive is full of Cyrillic names.
 */
export function playerNameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/** The shortest name part the trigram index serves; shorter parts match whole names (by B-tree). */
const SHORTEST_PART = 3;

/**
 * SQL matching `column` (a folded name) against a name part, folded here: anywhere in the name for
 * parts of three characters or more (the trigram index on the distinct names, `player_names`, finds
 * the names; the B-tree on the column their rows), the whole name for shorter ones (a B-tree serves
 * them; no index serves a shorter part anywhere). `param` adds a query parameter
 * and returns its placeholder.
 */
export function nameKeyMatches(column: string, part: string, param: (value: string) => string): string {
  const key = playerNameKey(part);
  if (key.length < SHORTEST_PART) return `${column} = ${param(key)}`;
  const pattern = `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return `${column} IN (SELECT n.name_key FROM player_names n WHERE n.name_key LIKE ${param(pattern)})`;
}
