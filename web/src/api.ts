/**
 * The viewer's one way to the archive: the client generated from openapi/openapi.json, pointed at
 * the origin that served the page, with the API key (when the user gave one) for the writes that
 * need it.
 */
import { client } from './generated/client.gen';
import type { ProblemDetailsDto } from './generated/types.gen';

const KEY_STORAGE = 'tabula.apiKey';

export function apiKey(): string {
  try {
    return localStorage.getItem(KEY_STORAGE) ?? '';
  } catch {
    // Storage refused (private modes, blocked cookies): the key lives as long as the page.
    return memoryKey;
  }
}

let memoryKey = '';

export function setApiKey(key: string): void {
  memoryKey = key.trim();
  try {
    if (memoryKey) localStorage.setItem(KEY_STORAGE, memoryKey);
    else localStorage.removeItem(KEY_STORAGE);
  } catch {
    // Kept in memory only.
  }
}

client.setConfig({
  baseUrl: location.origin,
  // Called only for operations the spec marks as needing the key (uploads, deletes).
  auth: () => apiKey() || undefined,
});

/** What a failed call says: the problem's `detail`, or the best the answer gives. */
export function problemText(error: unknown, response?: Response): string {
  const problem = error as Partial<ProblemDetailsDto> | undefined;
  if (problem && typeof problem === 'object' && typeof problem.detail === 'string') {
    return problem.code ? `${problem.detail} (${problem.code})` : problem.detail;
  }
  if (typeof error === 'string' && error) return error;
  if (error instanceof Error) return error.message;
  return response ? `the archive answered ${response.status} ${response.statusText}` : 'the archive did not answer';
}

/** A player's key as the archive folds names (GET /players/{key}): NFKC, lower case. */
export function playerKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/** The board picture route for a position. */
export function boardUrl(id: number, options: { ply?: number; size: number; coordinates?: boolean; area?: { left: number; top: number; width: number; height: number } }): string {
  const query = new URLSearchParams({ size: String(options.size) });
  if (options.ply !== undefined) query.set('ply', String(options.ply));
  if (options.coordinates === false) query.set('coordinates', 'false');
  // A rectangle of points framed on the picture (where a pattern was found).
  if (options.area) query.set('area', [options.area.left, options.area.top, options.area.width, options.area.height].join(','));
  return `/games/${id}/board.svg?${query}`;
}

export function playersText(players: readonly { name: string | null; color: string | null; seat: number }[]): string {
  return players.map((p) => p.name ?? p.color ?? `seat ${p.seat}`).join(' – ') || 'unnamed players';
}
