/**
 * Draughts search by squares and material (POST /patterns/games, family checkers): the whole board
 * drawn, each dark square clicked through anything, white man, white king, black man, black king and
 * empty; bounds on each side's men and kings; a span of plies. The games found are pictured at the
 * first ply that matches and open there. The search lives in the hash
 * (`#/patterns?family=checkers&rows=…&wm=4-8`), so it can be linked.
 */
import { useState } from 'preact/hooks';
import { boardUrl, playersText } from './api';
import { GridBoard } from './board-grid';
import { gamesWithPattern } from './generated/sdk.gen';
import type { PatternGameDto, PatternGamesPageDto } from './generated/types.gen';
import { PagedResults, useFormFollowsSearch, usePagedSearch } from './paged';
import { ArchiveImage } from './token';

const PAGE = 20;
const SIZE = 8;
const NEXT: Record<string, string> = { '*': 'w', w: 'W', W: 'b', b: 'B', B: '.', '.': '*' };
const NAMES: Record<string, string> = { '*': 'anything', w: 'white man', W: 'white king', b: 'black man', B: 'black king', '.': 'empty' };
const FILES = 'abcdefgh';
const isDark = (x: number, y: number) => (x + y) % 2 === 1;
/** The bounds, as the hash names them: white men, white kings, black men, black kings. */
const BOUNDS = [
  { key: 'wm', side: 'white', kind: 'men', label: 'White men' },
  { key: 'wk', side: 'white', kind: 'kings', label: 'White kings' },
  { key: 'bm', side: 'black', kind: 'men', label: 'Black men' },
  { key: 'bk', side: 'black', kind: 'kings', label: 'Black kings' },
] as const;
type BoundKey = (typeof BOUNDS)[number]['key'];

interface Sought {
  readonly rows: readonly string[];
  /** Per bound, its least and most as typed ('' for open). */
  readonly bounds: Readonly<Record<BoundKey, readonly [string, string]>>;
  readonly plyFrom: string;
  readonly plyTo: string;
}

const EMPTY_ROWS = Array.from({ length: SIZE }, (_, y) => Array.from({ length: SIZE }, (_, x) => (isDark(x, y) ? '*' : '-')).join(''));

/** A count as typed: 0–12, or '' for none. */
const countText = (value: string | null | undefined) => (/^\d{1,2}$/.test((value ?? '').trim()) && Number(value) <= 12 ? String(Number(value)) : '');
const plyText = (value: string | null | undefined) => (/^\d{1,6}$/.test((value ?? '').trim()) ? String(Number(value)) : '');

function soughtOf(params: URLSearchParams): Sought {
  const rows = (params.get('rows') ?? '').split('/');
  const valid = rows.length === SIZE && rows.every((row, y) => row.length === SIZE && [...row].every((cell, x) => (isDark(x, y) ? cell in NAMES : cell === '-')));
  const bounds = Object.fromEntries(
    BOUNDS.map(({ key }) => {
      const [lo, hi] = (params.get(key) ?? '').split('-');
      return [key, [countText(lo), countText(hi)]];
    }),
  ) as Record<BoundKey, [string, string]>;
  return { rows: valid ? rows : EMPTY_ROWS, bounds, plyFrom: plyText(params.get('plyFrom')), plyTo: plyText(params.get('plyTo')) };
}

function hashOf(sought: Sought): string {
  const query = new URLSearchParams({ family: 'checkers', rows: sought.rows.join('/') });
  for (const { key } of BOUNDS) {
    const [lo, hi] = sought.bounds[key];
    if (lo !== '' || hi !== '') query.set(key, `${lo}-${hi}`);
  }
  if (sought.plyFrom !== '') query.set('plyFrom', sought.plyFrom);
  if (sought.plyTo !== '') query.set('plyTo', sought.plyTo);
  return `#/patterns?${query}`;
}

function bodyOf(sought: Sought) {
  const material: Record<string, Record<string, [number | null, number | null]>> = {};
  for (const { key, side, kind } of BOUNDS) {
    const [lo, hi] = sought.bounds[key];
    if (lo === '' && hi === '') continue;
    (material[side] ??= {})[kind] = [lo === '' ? null : Number(lo), hi === '' ? null : Number(hi)];
  }
  const anySquare = sought.rows.some((row) => /[wWbB.]/.test(row));
  return {
    family: 'checkers' as const,
    // With bounds alone, no board: every position passes it.
    ...(anySquare || Object.keys(material).length === 0 ? { pattern: [...sought.rows] } : {}),
    ...(Object.keys(material).length > 0 ? { material } : {}),
    ...(sought.plyFrom !== '' ? { plyFrom: Number(sought.plyFrom) } : {}),
    ...(sought.plyTo !== '' ? { plyTo: Number(sought.plyTo) } : {}),
  };
}

export function DraughtsPatternsPage({ query: params }: { query: URLSearchParams }) {
  const key = params.has('rows') || BOUNDS.some(({ key: bound }) => params.has(bound)) ? hashOf(soughtOf(params)) : null;
  const [draft, setDraft] = useState<Sought>(() => soughtOf(params));
  const searched = key === null ? null : soughtOf(params);
  const paged = usePagedSearch<PatternGameDto, PatternGamesPageDto>(
    key,
    () => gamesWithPattern({ body: { ...bodyOf(searched!), limit: PAGE } }),
    (cursor) => gamesWithPattern({ body: { cursor, limit: PAGE } }),
  );
  const { items, loading, error } = paged;
  const total = paged.answer?.total ?? 0;
  useFormFollowsSearch(key, () => setDraft(soughtOf(params)));

  const set = (change: Partial<Sought>) => setDraft((before) => ({ ...before, ...change }));
  const cycle = (x: number, y: number) => set({ rows: draft.rows.map((row, i) => (i === y ? row.slice(0, x) + NEXT[row[x]] + row.slice(x + 1) : row)) });
  const bound = (which: BoundKey, end: 0 | 1, value: string) => {
    const pair: [string, string] = [...draft.bounds[which]];
    pair[end] = countText(value);
    set({ bounds: { ...draft.bounds, [which]: pair } });
  };
  const submit = (event: Event) => {
    event.preventDefault();
    location.hash = hashOf(draft);
  };

  const squares = [];
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      if (!isDark(x, y)) {
        squares.push(<span class="sq light" />);
        continue;
      }
      const cell = draft.rows[y][x];
      squares.push(
        <button type="button" class="sq dark" data-x={x} data-y={y} aria-label={`${FILES[x]}${SIZE - y}: ${NAMES[cell]}`} onClick={() => cycle(x, y)}>
          {cell === '*' ? <span class="any-square" aria-hidden="true">*</span> : cell !== '.' && <span class={`pc ${cell.toLowerCase()}`}>{cell === 'W' || cell === 'B' ? '♛' : ''}</span>}
        </button>,
      );
    }
  }

  return (
    <>
      <h1>Patterns: Russian draughts</h1>
      <p>
        <a href="#/patterns">Go and Dots patterns</a>
      </p>
      <div class="pattern-layout">
        <form class="pattern-form" role="search" aria-label="Draughts pattern" onSubmit={submit}>
          <p class="muted">Click a dark square to make it anything (*), a white man, a white king, a black man, a black king or empty. The board as it stands: no turn or mirror, white at the bottom.</p>
          <GridBoard kind="position-board draughts" width={SIZE} height={SIZE} label="The draughts pattern">
            {squares}
          </GridBoard>
          <div class="filters">
            {BOUNDS.map(({ key: which, label }) => (
              <label>
                {label}
                <span>
                  <input name={`${which}-lo`} type="number" min={0} max={12} size={3} value={draft.bounds[which][0]} placeholder="0" onInput={(event) => bound(which, 0, (event.currentTarget as HTMLInputElement).value)} />
                  {' to '}
                  <input name={`${which}-hi`} type="number" min={0} max={12} size={3} value={draft.bounds[which][1]} placeholder="12" onInput={(event) => bound(which, 1, (event.currentTarget as HTMLInputElement).value)} />
                </span>
              </label>
            ))}
            <label>
              From ply
              <input name="plyFrom" type="number" min={0} value={draft.plyFrom} onInput={(event) => set({ plyFrom: plyText((event.currentTarget as HTMLInputElement).value) })} placeholder="0" size={5} />
            </label>
            <label>
              To ply
              <input name="plyTo" type="number" min={0} value={draft.plyTo} onInput={(event) => set({ plyTo: plyText((event.currentTarget as HTMLInputElement).value) })} placeholder="the end" size={5} />
            </label>
          </div>
          <p class="pattern-rows">
            As the API takes it: <code>{JSON.stringify(bodyOf(draft))}</code>
          </p>
          <div class="actions">
            <button type="submit">Search</button>
            <button type="button" onClick={() => setDraft(soughtOf(new URLSearchParams()))}>
              Clear
            </button>
          </div>
        </form>
        <div class="pattern-found">
          <PagedResults id="pattern-results" search={key} heading={loading ? 'Searching…' : error ? 'Games' : `${total} ${total === 1 ? 'game' : 'games'} with the position`} paged={paged}>
            <ul class="results pattern-results">
              {items.map((game) => (
                <li class="result">
                  <a href={`#/games/${game.id}?ply=${game.ply}`} class="result-link">
                    <ArchiveImage class="thumb pattern-thumb" src={boardUrl(game.id, { ply: game.ply, size: 144, coordinates: false })} width={144} height={144} loading="lazy" alt={`The board of game ${game.id} after ply ${game.ply}`} />
                    <span class="summary">
                      <strong class="players">{playersText(game.players)}</strong>
                      <span>
                        from ply {game.ply}
                        {game.result ? ` · ${game.result}` : ''}
                      </span>
                      <span class="muted">
                        #{game.id}
                        {game.facts?.datePlayed ? ` · played ${game.facts.datePlayed}` : ''}
                      </span>
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </PagedResults>
        </div>
      </div>
    </>
  );
}
