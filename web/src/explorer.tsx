/**
 * What the position index says of the position on the game's board: the moves played next from it
 * in the archive's games, with their counts and results (a move opens the newest game that played
 * it, at that position), and the games that reach it (GET /positions/explorer and /positions/games).
 */
import { useEffect, useState } from 'preact/hooks';
import { playersText, problemText } from './api';
import { explorePosition, gamesThroughPosition } from './generated/sdk.gen';
import type { ExplorerDto, PositionGamesPageDto } from './generated/types.gen';

const SHOWN_GAMES = 8;

export function Explorer({ id, ply }: { id: number; ply: number }) {
  const [moves, setMoves] = useState<ExplorerDto | null>(null);
  const [games, setGames] = useState<PositionGamesPageDto | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let current = true;
    setError('');
    // A short pause: stepping through a game asks only for the position it stops at.
    const timer = setTimeout(() => {
      const query = { game: id, ply };
      Promise.all([explorePosition({ query }), gamesThroughPosition({ query: { ...query, limit: SHOWN_GAMES } })]).then(([explored, found]) => {
        if (!current) return;
        if (!explored.data) return setError(problemText(explored.error, explored.response));
        setMoves(explored.data);
        setGames(found.data ?? null);
      });
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id, ply]);

  if (error) {
    return (
      <section class="explorer">
        <h2>This position in other games</h2>
        <p class="muted">{error}</p>
      </section>
    );
  }
  if (!moves) return null;
  const others = (games?.items ?? []).filter((game) => game.id !== id);
  return (
    <section class="explorer" aria-live="polite">
      <h2>This position in other games</h2>
      <p class="muted">
        {moves.games === 1 ? 'Only this game reaches it' : `${moves.games} games reach it`} (up to a turn or mirror of the board).
      </p>
      {moves.moves.length > 0 && (
        <table class="explorer-moves">
          <caption class="visually-hidden">Moves played next</caption>
          <thead>
            <tr>
              <th scope="col">Next</th>
              <th scope="col">Games</th>
              <th scope="col">Results</th>
              <th scope="col">Last played</th>
            </tr>
          </thead>
          <tbody>
            {moves.moves.map((move) => (
              <tr>
                <td>
                  <a href={`#/games/${move.game}?ply=${ply + 1}`} title={`Open game ${move.game}, which played it`}>
                    {move.notation}
                  </a>
                </td>
                <td>{move.games}</td>
                <td>{resultsText(move.results)}</td>
                <td>{move.lastPlayed ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {others.length > 0 && (
        <>
          <h3>Games with this position</h3>
          <ul class="position-games">
            {others.map((game) => (
              <li>
                <a href={`#/games/${game.id}?ply=${game.ply}`}>{playersText(game.players)}</a>
                <span class="muted">
                  {' '}
                  · ply {game.ply}
                  {game.transform !== 'identity' ? ` · ${game.transform}` : ''}
                  {game.facts?.datePlayed ? ` · ${game.facts.datePlayed}` : ''}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** `black 12 · white 8 · draw 1 · ? 3`. */
export function resultsText(results: Record<string, number>): string {
  return Object.entries(results)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([result, count]) => `${result === 'unknown' ? '?' : result} ${count}`)
    .join(' · ');
}
