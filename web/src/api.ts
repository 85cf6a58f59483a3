/**
 * The viewer's one way to the archive: the client generated from openapi/openapi.json, pointed at
 * the origin that served the page. Every request it makes passes through credentials.ts, which
 * puts the token held for this tab on it when it goes to that origin (and only then), and every
 * 401 answer is told to the page, which asks for a token.
 */
import { client } from './generated/client.gen';
import type { ProblemDetailsDto } from './generated/types.gen';
import { noteAnswer, withToken } from './credentials';

client.setConfig({
  baseUrl: location.origin,
  // No `auth` callback, which would put the token on whatever URL an operation is sent to: the
  // request interceptor below decides by the request's origin instead.
  // The archive's routes answer without redirects; one would take the request (and its token) elsewhere.
  redirect: 'error',
});
client.interceptors.request.use((request) => withToken(request));
client.interceptors.response.use(async (response, request) => {
  await noteAnswer(request, response);
  return response;
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
