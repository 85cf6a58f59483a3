/** A player's page: the statistics of GET /players/{key} and the player's games, newest first. */
import { useEffect, useState } from 'preact/hooks';
import { boardUrl, problemText } from './api';
import { getPlayer, getPlayerGames } from './generated/sdk.gen';
import type { PlayerGameDto, PlayerRecordDto, PlayerStatisticsDto } from './generated/types.gen';
import { familyName } from './search';
import { ArchiveImage } from './token';

const COLUMNS = ['played', 'won', 'lost', 'drawn', 'unfinished', 'unknown'] as const;

export function PlayerPage({ playerKey }: { playerKey: string }) {
  const [stats, setStats] = useState<PlayerStatisticsDto | null>(null);
  const [games, setGames] = useState<PlayerGameDto[]>([]);
  const [next, setNext] = useState<number | null>(null);
  const [error, setError] = useState('');

  const load = async (before?: number) => {
    const { data, error, response } = await getPlayerGames({ path: { key: playerKey }, query: { limit: 20, ...(before ? { before } : {}) } });
    if (!data) return setError(problemText(error, response));
    setGames((shown) => (before ? [...shown, ...data.items] : data.items));
    setNext(data.next);
  };

  useEffect(() => {
    getPlayer({ path: { key: playerKey } }).then(({ data, error, response }) => {
      if (!data) return setError(problemText(error, response));
      setStats(data);
      load();
    });
  }, [playerKey]);

  if (error && !stats) {
    return (
      <p class="problem" role="alert">
        {error}
      </p>
    );
  }
  if (!stats) return <p aria-busy="true">Loading…</p>;
  return (
    <article>
      <h1>{stats.names[0] ?? stats.key}</h1>
      {stats.names.length > 1 && <p class="muted">Also written: {stats.names.slice(1).join(', ')}</p>}
      <div class="table-box">
        <table class="stats">
          <caption class="visually-hidden">Games by family</caption>
          <thead>
            <tr>
              <th scope="col">Game</th>
              {COLUMNS.map((column) => (
                <th scope="col">{column}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            <Row name="All" record={stats.overall} />
            {stats.byFamily.map((family) => (
              <Row name={familyName(family.family)} record={family} />
            ))}
          </tbody>
        </table>
      </div>
      <h2>Games</h2>
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      <ul class="results">
        {games.map((game) => (
          <li class="result">
            <a class="result-link" href={`#/games/${game.gameId}`}>
              <ArchiveImage class="thumb" src={boardUrl(game.gameId, { size: 96, coordinates: false })} width={96} height={96} loading="lazy" alt="" />
              <span class="summary">
                <strong>
                  Game {game.gameId} · {familyName(game.family)}
                </strong>
                <span>
                  {game.outcome ?? 'outcome unknown'}
                  {game.result ? ` · ${game.result}` : ''}
                </span>
                <span class="muted">uploaded {new Date(game.uploadedAt).toLocaleDateString()}</span>
              </span>
            </a>
          </li>
        ))}
      </ul>
      {next !== null && (
        <button type="button" onClick={() => load(next)}>
          More
        </button>
      )}
    </article>
  );
}

function Row({ name, record }: { name: string; record: PlayerRecordDto }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      {COLUMNS.map((column) => (
        <td>{record[column]}</td>
      ))}
    </tr>
  );
}
