/**
 * The search page: the filters of GET /games in a form whose state lives in the hash (so a search
 * can be linked and the back button returns to it), the results with small board pictures, and
 * keyset paging ("More") with the cursor the archive hands out.
 */
import { useEffect, useState } from 'preact/hooks';
import { boardUrl, playersText } from './api';
import { listFormats, searchGames } from './generated/sdk.gen';
import type { FormatDto, GamePageDto, ListedGameDto, SearchGamesData } from './generated/types.gen';
import { PagedResults, usePagedSearch } from './paged';
import { RankSelect, rankRangeOf } from './ranks';
import { ArchiveImage } from './token';

type Query = NonNullable<SearchGamesData['query']>;

/** The filters the form offers, in the API's own names. */
const TEXT_FILTERS = ['text', 'player', 'winner', 'owner', 'tags', 'boardSize', 'playedFrom', 'playedTo'] as const;
const CHOICE_FILTERS = ['family', 'status', 'consistent', 'unique', 'ending', 'sort'] as const;
const FILTERS = [...TEXT_FILTERS, ...CHOICE_FILTERS, 'publisher', 'version', 'rankMin', 'rankMax'] as const;

const FAMILIES = { go: 'Go', dots: 'Dots', checkers: 'Russian draughts', 'peg-solitaire': 'Peg solitaire' } as const;
const ENDINGS = ['score', 'resignation', 'time', 'forfeit', 'draw', 'unknown'] as const;
const SORTS = { '-uploaded': 'newest upload first', uploaded: 'oldest upload first', '-played': 'latest played first', played: 'earliest played first' } as const;

export function familyName(family: string | null): string {
  return family === null ? 'unknown game' : (FAMILIES as Record<string, string>)[family] ?? family;
}

function toQuery(params: URLSearchParams): Query {
  const query: Record<string, string | boolean> = {};
  for (const name of FILTERS) {
    const value = params.get(name)?.trim();
    if (!value) continue;
    query[name] = name === 'consistent' || name === 'unique' ? value === 'true' : value;
  }
  return query as Query;
}

export function SearchPage({ query: params }: { query: URLSearchParams }) {
  const key = params.toString();
  const [formats, setFormats] = useState<FormatDto[]>([]);
  const paged = usePagedSearch<ListedGameDto, GamePageDto>(
    key,
    () => searchGames({ query: { ...toQuery(params), limit: 20 } }),
    (cursor) => searchGames({ query: { cursor, limit: 20 } }),
  );
  const { items, loading, error } = paged;

  useEffect(() => {
    listFormats().then(({ data }) => setFormats(data?.formats ?? []));
  }, []);

  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const chosen = new URLSearchParams();
    for (const [name, value] of form) {
      if (typeof value !== 'string' || !value.trim()) continue;
      if (name === 'format') {
        const [publisher, version] = value.split('/');
        chosen.set('publisher', publisher);
        chosen.set('version', version);
      } else chosen.set(name, value.trim());
    }
    location.hash = `#/${chosen.size > 0 ? `?${chosen}` : ''}`;
  };

  const value = (name: string) => params.get(name) ?? '';
  const format = params.get('publisher') && params.get('version') ? `${params.get('publisher')}/${params.get('version')}` : '';

  return (
    <>
      <h1>Games</h1>
      <form class="filters" role="search" onSubmit={submit} key={key}>
        <label class="wide">
          Words <input name="text" type="search" defaultValue={value('text')} placeholder='comments, event, players: ladder -handicap, "sente resign"' maxLength={500} autocomplete="off" />
        </label>
        <label>
          Player <input name="player" type="search" defaultValue={value('player')} placeholder="part of a name" autocomplete="off" />
        </label>
        <label>
          Winner <input name="winner" type="search" defaultValue={value('winner')} placeholder="part of a name" autocomplete="off" />
        </label>
        <label>
          Owner <input name="owner" type="search" defaultValue={value('owner')} placeholder="account, as club-a" autocomplete="off" />
        </label>
        <label>
          Tags <input name="tags" type="search" defaultValue={value('tags')} placeholder="studied,-handicap" autocomplete="off" />
        </label>
        <label>
          Game
          <select name="family">
            <option value="">any</option>
            {Object.entries(FAMILIES).map(([id, name]) => (
              <option value={id} selected={value('family') === id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Format
          <select name="format">
            <option value="">any</option>
            {formats.map((f) => (
              <option value={`${f.publisher}/${f.version}`} selected={format === `${f.publisher}/${f.version}`}>
                {f.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          Ending
          <select name="ending">
            <option value="">any</option>
            {ENDINGS.map((ending) => (
              <option value={ending} selected={value('ending') === ending}>
                {ending}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select name="status">
            <option value="">any</option>
            <option value="indexed" selected={value('status') === 'indexed'}>
              indexed (replayed)
            </option>
            <option value="stored" selected={value('status') === 'stored'}>
              stored only
            </option>
          </select>
        </label>
        <label>
          Copies
          <select name="unique">
            <option value="">every file</option>
            <option value="true" selected={value('unique') === 'true'}>
              each game once
            </option>
          </select>
        </label>
        <label>
          File agrees with replay
          <select name="consistent">
            <option value="">either</option>
            <option value="true" selected={value('consistent') === 'true'}>
              yes
            </option>
            <option value="false" selected={value('consistent') === 'false'}>
              no
            </option>
          </select>
        </label>
        <label>
          Played from <input name="playedFrom" type="date" defaultValue={value('playedFrom')} />
        </label>
        <label>
          Played to <input name="playedTo" type="date" defaultValue={value('playedTo')} />
        </label>
        <label>
          Board <input name="boardSize" defaultValue={value('boardSize')} placeholder="19 or 39x32" pattern="\d+(x\d+)?" size={8} />
        </label>
        <RankSelect range={rankRangeOf(params)} />
        <label>
          Order
          <select name="sort">
            {Object.entries(SORTS).map(([id, name]) => (
              <option value={id === '-uploaded' ? '' : id} selected={value('sort') === id}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <div class="actions">
          <button type="submit">Search</button>
          <a href="#/">Clear</a>
        </div>
      </form>

      <PagedResults id="results" search={key} heading="Results" headingClass="visually-hidden" paged={paged}>
        {!loading && items.length === 0 && !error && <p>No game matches.</p>}
        <ul class="results">
          {items.map((game) => (
            <GameItem game={game} />
          ))}
        </ul>
      </PagedResults>
    </>
  );
}

/** A game listed as its players, result and facts, with its board: the final one, or after `at.ply` (which the link opens), `at.note` said beside it. */
export function GameItem({ game, at }: { game: Omit<ListedGameDto, 'copies' | 'copyOf'> & Partial<Pick<ListedGameDto, 'copies' | 'copyOf'>>; at?: { ply: number; note: string } }) {
  const played = game.facts?.datePlayed;
  return (
    <li class="result">
      <a href={`#/games/${game.id}${at ? `?ply=${at.ply}` : ''}`} class="result-link">
        {game.status === 'indexed' ? (
          <ArchiveImage class="thumb" src={boardUrl(game.id, { ply: at?.ply, size: 96, coordinates: false })} width={96} height={96} loading="lazy" alt="" />
        ) : (
          <span class="thumb none" aria-hidden="true">
            ?
          </span>
        )}
        <span class="summary">
          <strong class="players">{playersText(game.players)}</strong>
          <span>
            {familyName(game.family)}
            {game.result ? ` · ${game.result}` : ''}
            {game.moveCount !== null ? ` · ${game.moveCount} moves` : ''}
          </span>
          {at && <span>{at.note}</span>}
          <span class="muted">
            #{game.id}
            {played ? ` · played ${played}` : ''}
            {game.filename ? ` · ${game.filename}` : ''}
            {game.owner ? ` · owner ${game.owner}` : ''}
            {game.status === 'stored' ? ' · stored, not indexed' : ''}
          </span>
          {game.tags.length > 0 && <span class="tags">{game.tags.map((tag) => `#${tag}`).join(' ')}</span>}
          {(game.copyOf || (game.copies ?? 0) > 0) && (
            <span class="copies">{game.copyOf ? `a copy of #${game.copyOf}` : `${game.copies} ${game.copies === 1 ? 'copy' : 'copies'} in the archive`}</span>
          )}
        </span>
      </a>
      {game.hits && game.hits.length > 0 && (
        <ul class="hits" aria-label="Where the words are written">
          {game.hits.map((hit) => (
            <li>
              <a href={`#/games/${game.id}?ply=${hit.ply}`}>{hit.ply === 0 ? 'the game' : `ply ${hit.ply}`}</a>: <Snippet html={hit.snippet} />
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * A hit's snippet: the archive sends it as HTML (the text escaped, the words found in `<b>`). It is
 * taken apart here instead of being set as HTML, so nothing of a file ever runs as markup.
 */
function Snippet({ html }: { html: string }) {
  const unescape = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return (
    <span class="snippet">
      {html.split(/(<b>[^<]*<\/b>)/).map((part) => (part.startsWith('<b>') ? <mark>{unescape(part.slice(3, -4))}</mark> : unescape(part)))}
    </span>
  );
}
