/**
 * What the position index says of the position on the game's board: the moves played next from it
 * in the archive's games, with their counts and results (a move opens the newest game that played
 * it, at that position), and the games that reach it (GET /positions/explorer and /positions/games).
 */
import { useEffect, useState } from 'preact/hooks';
import { playersText, problemText } from './api';
import { explorePosition, gamesThroughPosition } from './generated/sdk.gen';
import type { ExplorerDto, ExplorerMoveDto, PositionGamesPageDto } from './generated/types.gen';

const SHOWN_GAMES = 8;

/** `edit`: the position editor's link with this board on it, where the viewer can write the board out. */
export function Explorer({ id, ply, edit }: { id: number; ply: number; edit?: string | null }) {
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
        {edit && <EditLink href={edit} />}
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
      {edit && <EditLink href={edit} />}
      {moves.moves.length > 0 && <ExplorerMoves moves={moves.moves} href={(move) => `#/games/${move.game}?ply=${ply + 1}`} />}
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

function EditLink({ href }: { href: string }) {
  return (
    <p>
      <a href={href}>Edit this position</a> <span class="muted">and search the board changed</span>
    </p>
  );
}

/**
 * The moves played next from a position, most played first: each opens `href(move)` (the newest game
 * that played it); `written` adds the move as the API writes it (SGF letters, PDN squares).
 */
export function ExplorerMoves({ moves, href, written = false }: { moves: readonly ExplorerMoveDto[]; href: (move: ExplorerMoveDto) => string; written?: boolean }) {
  return (
    <table class="explorer-moves">
      <caption class="visually-hidden">Moves played next</caption>
      <thead>
        <tr>
          {['Next', 'Games', 'Results', 'Last played', ...(written ? ['Written'] : [])].map((name) => (
            <th scope="col">{name}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {moves.map((move) => (
          <tr>
            <td>
              <a href={href(move)} title={`Open game ${move.game}, which played it`}>
                {move.notation}
              </a>
            </td>
            <td>{move.games}</td>
            <td>{resultsText(move.results)}</td>
            <td>{move.lastPlayed ?? '—'}</td>
            {written && (
              <td>
                <code>{move.move || '(pass)'}</code>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** `black 12 · white 8 · draw 1 · ? 3`. */
export function resultsText(results: Record<string, number>): string {
  return Object.entries(results)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([result, count]) => `${result === 'unknown' ? '?' : result} ${count}`)
    .join(' · ');
}
