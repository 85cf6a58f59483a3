/**
 * What the position index says of the position on the game's board: the moves played next from it
 * in the archive's games, with their counts and results (a move opens the newest game that played
 * it, at that position), and the games that reach it (GET /positions/explorer and /positions/games).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { playersText, problemText } from './api';
import { explorePosition, gamesThroughPosition, positionHistory } from './generated/sdk.gen';
import type { ExplorerDto, ExplorerMoveDto, PositionGamesPageDto, PositionHistoryDto } from './generated/types.gen';
import { RankSelect, rankQuery } from './ranks';
import type { RankRange } from './ranks';
import { downloadWithToken } from './token';

Chart.register(LineController, LineElement, PointElement, LinearScale, CategoryScale, Legend, Tooltip);

const SHOWN_GAMES = 8;

/** The moves drawn as their own lines in the chart (the most played). */
const CHARTED_MOVES = 5;
/** The opening dictionary's depth and the fewest games a move in it has, as the viewer asks for it. */
const TREE_DEPTH = 10;
const TREE_MIN_GAMES = 2;

/**
 * `edit`: the position editor's link with this board on it, where the viewer can write the board out.
 * `range`: the Go rank range the games keep to (`onRange` changes it, in the page's hash); `family`
 * decides whether it is offered and what the dictionary is (SGF, or PDN for draughts).
 */
export function Explorer({ id, ply, edit, family, range, onRange }: { id: number; ply: number; edit?: string | null; family?: string | null; range: RankRange; onRange: (range: RankRange) => void }) {
  const [moves, setMoves] = useState<ExplorerDto | null>(null);
  const [games, setGames] = useState<PositionGamesPageDto | null>(null);
  const [history, setHistory] = useState<PositionHistoryDto | null>(null);
  const [error, setError] = useState('');
  const [treeError, setTreeError] = useState('');

  useEffect(() => {
    let current = true;
    setError('');
    // A short pause: stepping through a game asks only for the position it stops at.
    const timer = setTimeout(() => {
      const query = { game: id, ply, ...rankQuery(range) };
      Promise.all([
        explorePosition({ query: { ...query, by: 'year' } }),
        gamesThroughPosition({ query: { ...query, limit: SHOWN_GAMES } }),
        positionHistory({ query }),
      ]).then(([explored, found, dated]) => {
        if (!current) return;
        if (!explored.data) return setError(problemText(explored.error, explored.response));
        setMoves(explored.data);
        setGames(found.data ?? null);
        setHistory(dated.data ?? null);
      });
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [id, ply, range.rankMin, range.rankMax]);

  const ranks = family === 'go' && <RankSelect range={range} onChange={onRange} />;
  if (error) {
    return (
      <section class="explorer">
        <h2>This position in other games</h2>
        {ranks}
        <p class="muted">{error}</p>
        {edit && <EditLink href={edit} />}
      </section>
    );
  }
  if (!moves) return null;
  const others = (games?.items ?? []).filter((game) => game.id !== id);
  const tree = `/positions/tree?${new URLSearchParams({ game: String(id), ply: String(ply), depth: String(TREE_DEPTH), minGames: String(TREE_MIN_GAMES), ...rankQuery(range) })}`;
  const treeName = family === 'checkers' ? 'tree.pdn' : 'tree.sgf';
  return (
    <section class="explorer" aria-live="polite">
      <h2>This position in other games</h2>
      {ranks}
      <p class="muted">
        {moves.games === 1 ? 'Only this game reaches it' : `${moves.games} games reach it`} (up to a turn or mirror of the board).
      </p>
      {edit && <EditLink href={edit} />}
      {moves.moves.length > 0 && <ExplorerMoves moves={moves.moves} href={(move) => `#/games/${move.game}?ply=${ply + 1}`} />}
      {history && <YearChart history={history} moves={moves.moves} />}
      <p>
        <a
          href={tree}
          download={treeName}
          onClick={(event) => {
            setTreeError('');
            downloadWithToken(event, tree, treeName).then((problem) => problem && setTreeError(problem));
          }}
        >
          Download as {family === 'checkers' ? 'PDN' : 'SGF'} dictionary
        </a>{' '}
        <span class="muted">
          (the moves played from here in {TREE_MIN_GAMES} games or more, {TREE_DEPTH} plies deep)
        </span>
      </p>
      {treeError && (
        <p class="problem" role="alert">
          {treeError}
        </p>
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
  // Asked `by=year`, the archive adds each move's average year and its players' average rank or rating.
  const years = moves.some((move) => move.averageYear !== undefined);
  const strength = moves.some((move) => (move.averageRankText ?? move.averageRating ?? null) !== null);
  return (
    <div class="table-scroll">
      <table class="explorer-moves">
        <caption class="visually-hidden">Moves played next</caption>
        <thead>
          <tr>
            {['Next', 'Games', 'Results', 'Last played', ...(years ? ['Avg. year'] : []), ...(strength ? ['Avg. rank'] : []), ...(written ? ['Written'] : [])].map((name) => (
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
              {years && <td>{move.averageYear != null ? Math.round(move.averageYear) : '—'}</td>}
              {strength && <td>{move.averageRankText ?? (move.averageRating != null ? Math.round(move.averageRating) : '—')}</td>}
              {written && (
                <td>
                  <code>{move.move || '(pass)'}</code>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** `black 12 · white 8 · draw 1 · ? 3`. */
export function resultsText(results: Record<string, number>): string {
  return Object.entries(results)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([result, count]) => `${result === 'unknown' ? '?' : result} ${count}`)
    .join(' · ');
}

/** The years from the first to the last of `counted` (every year between, when they are a century or less apart). */
function chartYears(counted: readonly number[]): number[] {
  if (counted.length === 0) return [];
  const first = Math.min(...counted);
  const last = Math.max(...counted);
  if (last - first > 100) return [...new Set(counted)].sort((a, b) => a - b);
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

const LINE_COLOURS = ['#444', '#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd'];

/**
 * The position's games by the year they were played (GET /positions/history), with a line for each
 * of the most played moves from it: a chart.js line chart, and the same numbers in a table for
 * readers without the canvas.
 */
export function YearChart({ history, moves }: { history: PositionHistoryDto; moves: readonly ExplorerMoveDto[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const charted = moves.filter((move) => move.years !== undefined).slice(0, CHARTED_MOVES);
  const years = chartYears([...history.years.map((row) => row.year), ...charted.flatMap((move) => (move.years ?? []).map((row) => row.year))]);
  const lines = [
    { label: 'All games', counts: countsByYear(history.years) },
    ...charted.map((move) => ({ label: move.notation || '(pass)', counts: countsByYear(move.years ?? []) })),
  ].map((line) => ({ label: line.label, data: years.map((year) => line.counts.get(year) ?? 0) }));

  useEffect(() => {
    if (!canvas.current || years.length === 0) return;
    const chart = new Chart(canvas.current, {
      type: 'line',
      data: {
        labels: years.map(String),
        datasets: lines.map((line, i) => ({ ...line, borderColor: LINE_COLOURS[i % LINE_COLOURS.length], backgroundColor: LINE_COLOURS[i % LINE_COLOURS.length], borderWidth: i === 0 ? 3 : 2, pointRadius: 2 })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: { y: { beginAtZero: true, ticks: { precision: 0 }, title: { display: true, text: 'games' } } },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    return () => chart.destroy();
  }, [history, moves]);

  if (years.length === 0) {
    return <p class="muted">No game reaching it has a date.</p>;
  }
  return (
    <figure class="year-chart">
      <div class="chart-box">
        <canvas ref={canvas} role="img" aria-label={`Games reaching this position by year, ${years[0]} to ${years[years.length - 1]}, and the most played moves from it`} />
      </div>
      <figcaption class="muted">
        Games by the year played{history.undated > 0 ? ` (${history.undated} without a date left out)` : ''}.
      </figcaption>
      {/* Hidden in a box of its own: a table is as wide as its columns, whatever width it is given, and would widen a phone's page. */}
      <div class="visually-hidden">
        <table class="year-table">
          <caption>Games reaching this position by year, and by the move played next</caption>
          <thead>
            <tr>
              <th scope="col">Year</th>
              {lines.map((line) => (
                <th scope="col">{line.label}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {years.map((year, row) => (
              <tr>
                <th scope="row">{year}</th>
                {lines.map((line) => (
                  <td>{line.data[row]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function countsByYear(rows: readonly { year: number; games: number }[]): Map<number, number> {
  return new Map(rows.map((row) => [row.year, row.games]));
}
