/**
 * Pattern search (POST /patterns/games): a shape drawn on a board — a rectangle of points, each
 * clicked through X, O, . (empty) and * (anything) — with the family, the board size, where it must
 * lie (a corner, an edge, anywhere) and the colours; then the games it appears in, each pictured at
 * the first ply it is on the board with the place framed, and the moves played next around it,
 * lettered on the drawing. The search lives in the hash (`#/patterns?family=go&rows=...X/..O.`), so
 * it can be linked and the back button returns to it.
 */
import { useState } from 'preact/hooks';
import { boardUrl, playersText } from './api';
import { edgeClasses, GridBoard, Stone } from './board-grid';
import { resultsText } from './explorer';
import { gamesWithPattern } from './generated/sdk.gen';
import type { PatternAnchor, PatternColors, PatternContinuationDto, PatternGameDto, PatternGamesPageDto } from './generated/types.gen';
import { PagedResults, useFormFollowsSearch, usePagedSearch } from './paged';
import { RankSelect, rankQuery, rankRangeOf } from './ranks';
import { familyName } from './search';
import { ArchiveImage } from './token';

type PatternFamily = 'go' | 'dots';
type Cell = 'X' | 'O' | '.' | '*';

/** What a search asks: the form's state, and the hash's. */
interface Sought {
  readonly family: PatternFamily;
  /** `19` or `39x32`. */
  readonly board: string;
  readonly anchor: PatternAnchor;
  readonly colors: PatternColors;
  readonly rows: readonly string[];
  /** The span of plies ('' for none) and who is to move then ('' for either). */
  readonly plyFrom: string;
  readonly plyTo: string;
  readonly toMove: '' | 'black' | 'white';
  /** The Go rank range of the games ('' for an open end). */
  readonly rankMin: string;
  readonly rankMax: string;
}

const PAGE = 20;
const DEFAULT_BOARD: Record<PatternFamily, string> = { go: '19', dots: '39x32' };
const ANCHORS: Record<PatternAnchor, string> = { corner: 'in a corner', edge: 'on an edge', anywhere: 'anywhere' };
const NEXT_CELL: Record<Cell, Cell> = { '.': 'X', X: 'O', O: '*', '*': '.' };
const CELL_NAMES: Record<Cell, string> = { '.': 'empty', X: 'X', O: 'O', '*': 'anything' };
/** Continuations lettered on the drawing (the most played first). */
const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
/** The largest board side the editor draws (and the API's pattern rows). */
const MAX_SIDE = 64;

/** `19` → 19×19, `39x32` → 39×32; null for anything else (or too large to draw). */
function boardSize(text: string): { width: number; height: number } | null {
  const found = /^(\d{1,2})(?:x(\d{1,2}))?$/.exec(text.trim());
  if (!found) return null;
  const width = Number(found[1]);
  const height = found[2] === undefined ? width : Number(found[2]);
  return width >= 2 && height >= 2 && width <= MAX_SIDE && height <= MAX_SIDE ? { width, height } : null;
}

function soughtOf(params: URLSearchParams): Sought {
  const family: PatternFamily = params.get('family') === 'dots' ? 'dots' : 'go';
  const anchor = (params.get('anchor') ?? 'corner') as PatternAnchor;
  const rows = (params.get('rows') ?? '').split('/').filter((row) => row.length > 0);
  return {
    family,
    board: params.get('board') ?? DEFAULT_BOARD[family],
    anchor: anchor in ANCHORS ? anchor : 'corner',
    colors: params.get('colors') === 'any' ? 'any' : 'same',
    rows: rows.length > 0 && rows.every((row) => row.length === rows[0].length && /^[XO.*]+$/.test(row)) ? rows : ['.....', '.....', '.....', '.....'],
    plyFrom: plyText(params.get('plyFrom')),
    plyTo: plyText(params.get('plyTo')),
    toMove: params.get('toMove') === 'black' ? 'black' : params.get('toMove') === 'white' ? 'white' : '',
    ...rankRangeOf(params),
  };
}

/** A ply as the hash or the form gives it: digits, or '' for none. */
function plyText(value: string | null): string {
  const text = (value ?? '').trim();
  return /^\d{1,6}$/.test(text) ? String(Number(text)) : '';
}

function hashOf(sought: Sought): string {
  const query = new URLSearchParams({ family: sought.family, board: sought.board, anchor: sought.anchor, colors: sought.colors, rows: sought.rows.join('/') });
  // The span and the side to move only when given, so that a search without them keeps its hash.
  for (const key of ['plyFrom', 'plyTo', 'toMove', 'rankMin', 'rankMax'] as const) if (sought[key] !== '') query.set(key, sought[key]);
  return `#/patterns?${query}`;
}

/** Where the editor draws the pattern's rectangle on the board: as the anchor has it (a corner, the top edge), else a little inside. */
function editorPlace(anchor: PatternAnchor, board: { width: number; height: number }, width: number, height: number): { left: number; top: number } {
  const inside = (room: number) => Math.max(0, Math.min(2, room));
  return {
    left: anchor === 'corner' ? 0 : inside(board.width - width),
    top: anchor === 'anywhere' ? inside(board.height - height) : 0,
  };
}

/**
 * The form: what it will search, and the points drawn on a canvas of the largest size, so that a
 * rectangle made smaller and then larger again (typing 12 passes through 1) gives its points back.
 */
interface Draft extends Omit<Sought, 'rows'> {
  readonly width: number;
  readonly height: number;
  readonly canvas: readonly string[];
}

function draftOf(sought: Sought): Draft {
  const { rows, ...rest } = sought;
  const canvas = Array.from({ length: MAX_SIDE }, (_, y) => (rows[y] ?? '').padEnd(MAX_SIDE, '.'));
  return { ...rest, width: rows[0].length, height: rows.length, canvas };
}

function rowsOf(draft: Draft): string[] {
  return draft.canvas.slice(0, draft.height).map((row) => row.slice(0, draft.width));
}

function soughtOfDraft(draft: Draft): Sought {
  return { family: draft.family, board: draft.board, anchor: draft.anchor, colors: draft.colors, rows: rowsOf(draft), plyFrom: plyText(draft.plyFrom), plyTo: plyText(draft.plyTo), toMove: draft.toMove, rankMin: draft.rankMin, rankMax: draft.rankMax };
}

export function PatternsPage({ query: params }: { query: URLSearchParams }) {
  const key = params.has('rows') ? hashOf(soughtOf(params)) : null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(soughtOf(params)));
  const searched = key === null ? null : soughtOf(params);
  const paged = usePagedSearch<PatternGameDto, PatternGamesPageDto>(
    key,
    () => gamesWithPattern({ body: { ...bodyOf(searched!), limit: PAGE } }),
    (cursor) => gamesWithPattern({ body: { cursor, limit: PAGE } }),
  );
  const { items, loading, error, setError } = paged;
  const continuations = paged.answer?.continuations ?? [];
  const total = paged.answer?.total ?? 0;

  // The hash names a search: the form shows it (and it runs).
  useFormFollowsSearch(key, () => setDraft(draftOf(soughtOf(params))));

  const board = boardSize(draft.board);
  const { width, height } = draft;
  const rows = rowsOf(draft);
  const set = (change: Partial<Draft>) => setDraft((before) => ({ ...before, ...change }));
  // Each family's usual board comes with it.
  const chooseFamily = (family: PatternFamily) => set({ family, board: DEFAULT_BOARD[family], ...(family === 'go' ? {} : { rankMin: '', rankMax: '' }) });
  const cycle = (x: number, y: number) => set({ canvas: draft.canvas.map((row, i) => (i === y ? row.slice(0, x) + NEXT_CELL[row[x] as Cell] + row.slice(x + 1) : row)) });
  const submit = (event: Event) => {
    event.preventDefault();
    if (!board) return setError(`the board size ${JSON.stringify(draft.board)} is not one to draw: write 19, or 39x32 for a field`);
    location.hash = hashOf(soughtOfDraft(draft));
  };
  // The moves played next are lettered on the drawing while it shows the pattern they belong to.
  const lettered = searched !== null && !loading && hashOf(searched) === hashOf(soughtOfDraft(draft)) ? continuations.slice(0, LETTERS.length) : [];

  return (
    <>
      <h1>Patterns</h1>
      <p>
        <a href="#/patterns?family=checkers">Russian draughts by squares and material</a>
      </p>
      <div class="pattern-layout">
        <form class="pattern-form" role="search" aria-label="Pattern" onSubmit={submit}>
          <div class="filters">
            <label>
              Game
              <select name="family" onChange={(event) => chooseFamily((event.currentTarget as HTMLSelectElement).value as PatternFamily)}>
                {(['go', 'dots'] as const).map((family) => (
                  <option value={family} selected={draft.family === family}>
                    {familyName(family)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Board
              <input name="board" value={draft.board} onInput={(event) => set({ board: (event.currentTarget as HTMLInputElement).value })} placeholder="19 or 39x32" pattern="\d+(x\d+)?" size={8} />
            </label>
            <label>
              Where
              <select name="anchor" onChange={(event) => set({ anchor: (event.currentTarget as HTMLSelectElement).value as PatternAnchor })}>
                {Object.entries(ANCHORS).map(([anchor, name]) => (
                  <option value={anchor} selected={draft.anchor === anchor}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Colours
              <select name="colors" onChange={(event) => set({ colors: (event.currentTarget as HTMLSelectElement).value as PatternColors })}>
                <option value="same" selected={draft.colors === 'same'}>
                  as drawn (X {draft.family === 'go' ? 'black' : 'first player'})
                </option>
                <option value="any" selected={draft.colors === 'any'}>
                  either way
                </option>
              </select>
            </label>
            <label>
              From ply
              <input name="plyFrom" type="number" min={0} value={draft.plyFrom} onInput={(event) => set({ plyFrom: (event.currentTarget as HTMLInputElement).value })} placeholder="0" size={5} />
            </label>
            <label>
              To ply
              <input name="plyTo" type="number" min={0} value={draft.plyTo} onInput={(event) => set({ plyTo: (event.currentTarget as HTMLInputElement).value })} placeholder="the end" size={5} />
            </label>
            <label>
              To move
              <select name="toMove" onChange={(event) => set({ toMove: (event.currentTarget as HTMLSelectElement).value as Sought['toMove'] })}>
                <option value="" selected={draft.toMove === ''}>
                  either
                </option>
                <option value="black" selected={draft.toMove === 'black'}>
                  X ({draft.family === 'go' ? 'black' : 'first player'})
                </option>
                <option value="white" selected={draft.toMove === 'white'}>
                  O ({draft.family === 'go' ? 'white' : 'second player'})
                </option>
              </select>
            </label>
            {draft.family === 'go' && <RankSelect range={draft} onChange={(range) => set(range)} />}
            <label>
              Pattern width
              <input name="width" type="number" min={1} max={board?.width ?? MAX_SIDE} value={width} onInput={(event) => set({ width: clamp((event.currentTarget as HTMLInputElement).valueAsNumber, board?.width) })} />
            </label>
            <label>
              Pattern height
              <input name="height" type="number" min={1} max={board?.height ?? MAX_SIDE} value={height} onInput={(event) => set({ height: clamp((event.currentTarget as HTMLInputElement).valueAsNumber, board?.height) })} />
            </label>
          </div>
          <p class="muted">
            Click a point of the framed rectangle to make it X, O, anything (<span class="legend any" aria-hidden="true"></span>) or empty again.
            {draft.anchor === 'corner' ? ' Drawn in the top-left corner, it is found in any corner.' : draft.anchor === 'edge' ? ' Its first row lies on an edge.' : ''} Every turn and mirror of the board is tried.
          </p>
          {board ? (
            <PatternBoard family={draft.family} board={board} anchor={draft.anchor} rows={rows} lettered={lettered} onCycle={cycle} />
          ) : (
            <p class="problem">Write the board size as 19, or 39x32 for a field (at most {MAX_SIDE}).</p>
          )}
          <p class="pattern-rows">
            As the API takes it: <code>{JSON.stringify(rows)}</code>
          </p>
          <div class="actions">
            <button type="submit">Search</button>
            <button type="button" onClick={() => set({ canvas: draftOf({ ...soughtOfDraft(draft), rows: ['.'] }).canvas })}>
              Clear the points
            </button>
          </div>
        </form>

        <div class="pattern-found">
          <PagedResults id="pattern-results" search={key} heading={loading ? 'Searching…' : error ? 'Games' : `${total} ${total === 1 ? 'game' : 'games'} with the pattern`} paged={paged}>
            {!loading && continuations.length > 0 && <Continuations moves={continuations} lettered={lettered.length} />}
            {!loading && total > 0 && <h3>Where it first appears</h3>}
            <ul class="results pattern-results">
              {items.map((game) => (
                <PatternGame game={game} />
              ))}
            </ul>
          </PagedResults>
        </div>
      </div>
    </>
  );
}

function clamp(value: number, most: number | undefined): number {
  return Number.isFinite(value) ? Math.max(1, Math.min(most ?? MAX_SIDE, MAX_SIDE, Math.round(value))) : 1;
}

function bodyOf(sought: Sought) {
  return {
    family: sought.family,
    pattern: [...sought.rows],
    anchor: sought.anchor,
    colors: sought.colors,
    boardSize: sought.board.trim(),
    ...(sought.plyFrom !== '' ? { plyFrom: Number(sought.plyFrom) } : {}),
    ...(sought.plyTo !== '' ? { plyTo: Number(sought.plyTo) } : {}),
    ...(sought.toMove !== '' ? { toMove: sought.toMove } : {}),
    ...rankQuery(sought),
  };
}

/**
 * The board of the chosen size with the pattern's rectangle on it: each point of the rectangle a
 * button cycling its cell; the other points are drawn, not part of the pattern.
 */
function PatternBoard({
  family,
  board,
  anchor,
  rows,
  lettered,
  onCycle,
}: {
  family: PatternFamily;
  board: { width: number; height: number };
  anchor: PatternAnchor;
  rows: readonly string[];
  lettered: readonly PatternContinuationDto[];
  /** A point of the pattern clicked: its next cell. */
  onCycle: (x: number, y: number) => void;
}) {
  const width = Math.min(rows[0].length, board.width);
  const height = Math.min(rows.length, board.height);
  const place = editorPlace(anchor, board, width, height);
  // A point played by both colours shows the letter of the more played.
  const letters = new Map<string, { letter: string; move: PatternContinuationDto }>();
  lettered.forEach((move, i) => {
    const at = `${place.left + move.x},${place.top + move.y}`;
    if (!letters.has(at)) letters.set(at, { letter: LETTERS[i], move });
  });
  const points = [];
  for (let y = 0; y < board.height; y++) {
    for (let x = 0; x < board.width; x++) {
      const edges = edgeClasses(x, y, board.width, board.height);
      const px = x - place.left;
      const py = y - place.top;
      const inside = px >= 0 && py >= 0 && px < width && py < height;
      const mark = letters.get(`${x},${y}`);
      if (!inside) {
        points.push(
          <span class={`pt${edges}`} data-x={x} data-y={y}>
            {mark && <span class={`letter ${mark.move.color}`}>{mark.letter}</span>}
          </span>,
        );
        continue;
      }
      const cell = rows[py][px] as Cell;
      points.push(
        <button
          type="button"
          class={`pt in${edges}`}
          data-x={px}
          data-y={py}
          aria-label={`pattern column ${px + 1}, row ${py + 1}: ${CELL_NAMES[cell]}${mark ? `, continuation ${mark.letter}` : ''}`}
          onClick={() => onCycle(px, py)}
        >
          {cell === 'X' || cell === 'O' ? <Stone cell={cell} /> : cell === '*' ? <Stone cell="any" /> : null}
          {mark && <span class={`letter ${mark.move.color}`}>{mark.letter}</span>}
        </button>,
      );
    }
  }
  return (
    <GridBoard kind={`pattern-board ${family}`} width={board.width} height={board.height} label={`The pattern on a ${board.width}×${board.height} board`}>
      {points}
    </GridBoard>
  );
}

function Continuations({ moves, lettered }: { moves: readonly PatternContinuationDto[]; lettered: number }) {
  return (
    <table class="explorer-moves continuations">
      <caption>Played next in or beside the pattern (lettered on the drawing)</caption>
      <thead>
        <tr>
          <th scope="col">Move</th>
          <th scope="col">Games</th>
          <th scope="col">Results</th>
          <th scope="col">Last played</th>
          <th scope="col">Newest game</th>
        </tr>
      </thead>
      <tbody>
        {moves.map((move, i) => (
          <tr>
            <td title={`column ${move.x + 1}, row ${move.y + 1} of the pattern as drawn`}>
              {i < lettered ? `${LETTERS[i]} ` : ''}
              {move.color === 'X' ? '●' : '○'} {move.color} {i < lettered ? '' : `(${move.x + 1}, ${move.y + 1})`}
            </td>
            <td>{move.games}</td>
            <td>{resultsText(move.results)}</td>
            <td>{move.lastPlayed ?? '—'}</td>
            <td>
              <a href={`#/games/${move.game}`}>#{move.game}</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PatternGame({ game }: { game: PatternGameDto }) {
  const { where } = game;
  const played = game.facts?.datePlayed;
  return (
    <li class="result">
      <a href={`#/games/${game.id}?ply=${game.ply}`} class="result-link">
        <ArchiveImage
          class="thumb pattern-thumb"
          src={boardUrl(game.id, { ply: game.ply, size: 144, coordinates: false, area: where })}
          width={144}
          height={144}
          loading="lazy"
          alt={`The board of game ${game.id} after ply ${game.ply}, the pattern framed`}
        />
        <span class="summary">
          <strong class="players">{playersText(game.players)}</strong>
          <span>
            {familyName(game.family)} · from ply {game.ply}
            {game.result ? ` · ${game.result}` : ''}
          </span>
          <span class="muted">
            {where.transform === 'identity' ? 'as drawn' : where.transform}
            {where.colorsSwapped ? ', colours swapped' : ''} · at column {where.left + 1}, row {where.top + 1}
          </span>
          <span class="muted">
            #{game.id}
            {played ? ` · played ${played}` : ''}
            {game.moveCount !== null ? ` · ${game.moveCount} moves` : ''}
          </span>
        </span>
      </a>
    </li>
  );
}
